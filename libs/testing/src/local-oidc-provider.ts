import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A client registered at the local provider (oidc-provider's client metadata names). */
export interface LocalOidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic' | 'none';
}

/**
 * Claims of an account (without `sub`, which is the account's id). With `as: '<id>'` the entry is
 * account <id> after a change at the provider: signing in with this entry's key as login_hint signs
 * in as <id> (same `sub`) with these claims.
 */
export type LocalOidcAccount = Record<string, unknown>;

export interface AuthorizeOptions {
  clientId: string;
  redirectUri: string;
  /** The account that "signs in" (its id); default "default". */
  loginHint?: string;
  nonce: string;
  codeChallenge: string;
  state?: string;
  scope?: string;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) in a child process on a loopback port, with the
 * login and consent pages skipped (the account is the request's login_hint). Discovery at
 * `${issuer}/.well-known/openid-configuration`, authorization code flow with PKCE, signed ID tokens.
 */
export class LocalOidcProvider {
  private constructor(
    readonly issuer: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(options: { clients: LocalOidcClient[]; accounts: Record<string, LocalOidcAccount> }): Promise<LocalOidcProvider> {
    const clients = options.clients.map((c) => ({ grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: c.client_secret ? 'client_secret_post' : 'none', ...c }));
    const accounts = { default: { email: 'default@example.com', email_verified: true }, ...options.accounts };
    const child = spawn(process.execPath, [join(__dirname, 'local-oidc-provider.mjs'), JSON.stringify({ clients, accounts })], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const issuer = await new Promise<string>((resolve, reject) => {
      if (!child.stdout) return reject(new Error('local OpenID provider: no stdout'));
      const lines = createInterface({ input: child.stdout });
      const timer = setTimeout(() => reject(new Error(`local OpenID provider did not start: ${stderr}`)), 20_000);
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      });
      child.once('exit', (code) => reject(new Error(`local OpenID provider exited (${code}): ${stderr}`)));
    });
    return new LocalOidcProvider(issuer, child);
  }

  /** The authorization request as a browser would make it, following redirects; answers with the redirect back. */
  async authorize(options: AuthorizeOptions): Promise<URL> {
    const answer = await this.follow(options, 'query');
    if (answer instanceof URL) return answer;
    throw new Error('local OpenID provider answered with a form, not a redirect');
  }

  /**
   * The authorization request with `response_mode=form_post`: answers with the form the provider's
   * page would POST back (its action, the client's redirect_uri, and its fields: code and state, or error).
   */
  async authorizeFormPost(options: AuthorizeOptions): Promise<{ action: string; fields: URLSearchParams }> {
    const answer = await this.follow(options, 'form_post');
    if (answer instanceof URL) throw new Error(`local OpenID provider redirected instead of posting a form: ${answer.toString()}`);
    return answer;
  }

  private async follow(options: AuthorizeOptions, responseMode: 'query' | 'form_post'): Promise<URL | { action: string; fields: URLSearchParams }> {
    const url = new URL(`${this.issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      response_type: 'code',
      scope: options.scope ?? 'openid email profile',
      nonce: options.nonce,
      state: options.state ?? randomBytes(16).toString('base64url'),
      code_challenge: options.codeChallenge,
      code_challenge_method: 'S256',
      login_hint: options.loginHint ?? 'default',
      ...(responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
    }).toString();
    const cookies = new Map<string, string>();
    let next = url.toString();
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.startsWith(options.redirectUri)) return new URL(next);
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const header of response.headers.getSetCookie()) {
        const pair = header.split(';')[0] ?? '';
        const at = pair.indexOf('=');
        if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location && response.headers.get('content-type')?.startsWith('text/html')) return parseAutoPostForm(await response.text());
      await response.body?.cancel();
      if (!location) throw new Error(`local OpenID provider answered ${response.status} without a redirect`);
      next = new URL(location, next).toString();
    }
    throw new Error('too many redirects at the local OpenID provider');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}

/** The provider's self-submitting form (oidc-provider's form_post page): its action and hidden fields, HTML entities decoded. */
function parseAutoPostForm(html: string): { action: string; fields: URLSearchParams } {
  const decode = (text: string): string => text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (action === undefined) throw new Error('local OpenID provider answered a page without a form');
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)) fields.append(decode(name ?? ''), decode(value ?? ''));
  return { action: decode(action), fields };
}

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
