// A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, for tests only.
// Run by local-oidc-provider.ts in its own Node process (the package is ES modules only).
// Input: one JSON argument {clients, accounts}. Output: one JSON line {issuer} on stdout.
// The login and consent pages are skipped: the account is the authorization request's login_hint
// (or "default"), and consent is granted to what was asked.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { clients, accounts } = JSON.parse(process.argv[2] ?? '{}');
// An entry with "as": "<id>" signs in as account <id> with the entry's claims (that account after a
// change at the provider, e.g. a new e-mail address); `current` is the entry each account last used.
const current = {};
let provider;
const server = createServer((req, res) => {
  const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
  if (!match) return provider.callback()(req, res);
  finishInteraction(req, res).catch((error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});

async function finishInteraction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params } = details;
  if (prompt.name === 'login') {
    const hint = typeof params.login_hint === 'string' && params.login_hint in accounts ? params.login_hint : 'default';
    const accountId = typeof accounts[hint].as === 'string' ? accounts[hint].as : hint;
    current[accountId] = hint;
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
  grant.addOIDCScope(String(params.scope));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  provider = new Provider(issuer, {
    clients,
    findAccount: (_ctx, id) => {
      const entry = accounts[current[id] ?? id];
      if (entry === undefined) return undefined;
      const { as: _as, ...claims } = entry;
      return { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    // The profile and e-mail claims in the ID token itself, as Apple and Microsoft put them.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['local-oidc-provider-test-only'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 600, Grant: 600 },
  });
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
