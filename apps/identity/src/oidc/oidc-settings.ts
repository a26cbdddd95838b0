import { createPrivateKey } from 'node:crypto';
/**
 * The OpenID Connect providers people may sign in with (besides Google, which has its own settings),
 * from OIDC_PROVIDERS: a JSON array such as
 * `[{"name":"microsoft","label":"Microsoft","issuer":"https://login.microsoftonline.com/<tenant>/v2.0","client_id":"...","client_secret":"..."}]`
 * (for any Microsoft tenant: `"issuer":"https://login.microsoftonline.com/organizations/v2.0","multi_tenant":true`).
 * A provider's URLs come from here and its discovery document only, never from a request.
 */
export interface OidcProviderSettings {
  /** Lower-case id used in routes and callback paths (`/api/login-with-oidc/{name}/`). */
  name: string;
  /** Shown on the button: "Continue with {label}". */
  label: string;
  /** The issuer; discovery is `<issuer>/.well-known/openid-configuration` and must name this issuer. */
  issuer: string;
  clientId: string;
  /** Sent to the token endpoint (client_secret_post); absent: a public client relying on PKCE alone. */
  clientSecret?: string;
  /**
   * Apple's client authentication: instead of a fixed secret, a short-lived ES256 JWT signed with the
   * key from the Apple developer account (team id, key id, PKCS#8 PEM), made for each code exchange.
   */
  appleClientSecret?: { teamId: string; keyId: string; privateKey: string };
  /** Requested scopes; `openid email` at least. */
  scope: string;
  /**
   * The ID token claim that says the provider verified the e-mail address: `email_verified` (the
   * standard, Apple, Google). Microsoft Entra sends none; with the optional claim `xms_edov` (e-mail
   * domain owner verified) added to the app registration, set "xms_edov".
   */
  verifiedEmailClaim: string;
  /**
   * Microsoft's multi-tenant endpoints (`common`, `organizations`): their discovery document names
   * the issuer as a template, `https://login.microsoftonline.com/{tenantid}/v2.0`, and each ID token
   * is accepted only when its `iss` is that template with the token's own `tid` (a tenant GUID) put
   * in. Off: the discovery document must name exactly the configured issuer (one tenant).
   */
  multiTenant: boolean;
  /**
   * How the provider sends the browser back with the code: `query` (a GET to the web app's callback
   * page, the default) or `form_post` (a form POST, which Apple requires when the e-mail or name is
   * asked for). A form_post provider posts to the gateway's `/api/login-with-oidc/<name>/callback/`,
   * which answers 303 to the web app's callback page with the code and state in the query.
   */
  responseMode: OidcResponseMode;
}

export const OIDC_RESPONSE_MODES = ['query', 'form_post'] as const;
export type OidcResponseMode = (typeof OIDC_RESPONSE_MODES)[number];

export class OidcSettingsError extends Error {}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Parses and checks OIDC_PROVIDERS; a mistake stops the service at start, naming the field. */
export function parseOidcProviders(text: string | undefined): OidcProviderSettings[] {
  if (text === undefined || text.trim() === '') return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new OidcSettingsError('OIDC_PROVIDERS is not JSON');
  }
  if (!Array.isArray(raw)) throw new OidcSettingsError('OIDC_PROVIDERS must be a JSON array');
  const seen = new Set<string>();
  return raw.map((entry: unknown, index) => {
    const at = `OIDC_PROVIDERS[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new OidcSettingsError(`${at} must be an object`);
    const optional = (key: string): string | undefined => {
      const value = (entry as Record<string, unknown>)[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || value.trim() === '') throw new OidcSettingsError(`${at}.${key} must be a non-empty string`);
      return value.trim();
    };
    const required = (key: string): string => {
      const value = optional(key);
      if (value === undefined) throw new OidcSettingsError(`${at}.${key} must be a non-empty string`);
      return value;
    };
    const name = required('name');
    if (!NAME.test(name)) throw new OidcSettingsError(`${at}.name must be lower-case letters, digits and dashes`);
    if (name === 'google') throw new OidcSettingsError(`${at}.name: Google has its own settings (GOOGLE_CLIENT_IDS)`);
    if (seen.has(name)) throw new OidcSettingsError(`${at}.name is used twice`);
    seen.add(name);
    const issuer = required('issuer');
    if (!isAllowedUrl(issuer)) throw new OidcSettingsError(`${at}.issuer must be an https URL (http only on the loopback address)`);
    const scope = optional('scope') ?? 'openid email profile';
    if (!scope.split(' ').includes('openid')) throw new OidcSettingsError(`${at}.scope must include openid`);
    const settings: OidcProviderSettings = {
      name,
      label: optional('label') ?? name.charAt(0).toUpperCase() + name.slice(1),
      issuer: issuer.replace(/\/+$/, ''),
      clientId: required('client_id'),
      scope,
      verifiedEmailClaim: optional('verified_email_claim') ?? 'email_verified',
      multiTenant: false,
      responseMode: 'query',
    };
    const multiTenant = (entry as Record<string, unknown>)['multi_tenant'];
    if (multiTenant !== undefined && typeof multiTenant !== 'boolean') throw new OidcSettingsError(`${at}.multi_tenant must be true or false`);
    settings.multiTenant = multiTenant === true;
    const responseMode = (entry as Record<string, unknown>)['response_mode'];
    if (responseMode !== undefined) {
      if (!OIDC_RESPONSE_MODES.includes(responseMode as OidcResponseMode)) throw new OidcSettingsError(`${at}.response_mode must be "query" or "form_post"`);
      settings.responseMode = responseMode as OidcResponseMode;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(settings.verifiedEmailClaim)) throw new OidcSettingsError(`${at}.verified_email_claim must be a claim name`);
    const secret = optional('client_secret');
    if (secret !== undefined) settings.clientSecret = secret;
    const apple = (entry as Record<string, unknown>)['apple_client_secret'];
    if (apple !== undefined) {
      if (secret !== undefined) throw new OidcSettingsError(`${at}: client_secret or apple_client_secret, not both`);
      if (typeof apple !== 'object' || apple === null) throw new OidcSettingsError(`${at}.apple_client_secret must be an object`);
      const part = (key: string): string => {
        const value = (apple as Record<string, unknown>)[key];
        if (typeof value !== 'string' || value.trim() === '') throw new OidcSettingsError(`${at}.apple_client_secret.${key} must be a non-empty string`);
        return value.trim();
      };
      const privateKey = part('private_key').replace(/\\n/g, '\n');
      if (!isEcPrivateKey(privateKey)) throw new OidcSettingsError(`${at}.apple_client_secret.private_key must be a PKCS#8 PEM key (Apple's .p8 file)`);
      settings.appleClientSecret = { teamId: part('team_id'), keyId: part('key_id'), privateKey };
    }
    return settings;
  });
}

/** https, or http on the loopback address (a local provider in tests and development). */
export function isAllowedUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** True when `pem` parses as an elliptic-curve private key (Apple's Sign in with Apple keys are P-256, in a .p8 PEM file). */
function isEcPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey({ key: pem, format: 'pem' }).asymmetricKeyType === 'ec';
  } catch {
    return false;
  }
}
