import { importJWK, SignJWT } from 'jose';
import { ACCESS_TOKEN_ALG, type SigningKey } from './signing-keys';

/** Claims every access token carries. `token_use` keeps refresh or other tokens out of its place. */
export interface AccessTokenClaims {
  sub: string;
  roles: string[];
  /** The sign-in (refresh token family) this token belongs to: gateways refuse tokens without one. */
  sid: string;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  /** Lifetime in seconds (15 minutes for access tokens). */
  ttlSeconds: number;
}

export const DEFAULT_TOKEN_SETTINGS: TokenSettings = { issuer: 'medfolio-identity', audience: 'medfolio-api', ttlSeconds: 900 };

export async function signAccessToken(key: SigningKey, claims: AccessTokenClaims, settings: TokenSettings = DEFAULT_TOKEN_SETTINGS): Promise<string> {
  const privateKey = await importJWK(key.privateJwk, ACCESS_TOKEN_ALG);
  return new SignJWT({ roles: claims.roles, token_use: 'access', sid: claims.sid })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: key.kid, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setIssuedAt()
    .setExpirationTime(`${settings.ttlSeconds}s`)
    .sign(privateKey);
}
