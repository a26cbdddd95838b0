import { createPublicKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy, type SecretOrKeyProvider } from 'passport-jwt';
import type { JSONWebKeySet } from 'jose';
import { MAX_ACCESS_TOKEN_TTL_SECONDS } from '@medfolio/contracts';
import { GatewayConfig } from '../config';
import { RevokedSessionsRepository } from '../repositories/revoked-sessions.repository';

export const LOCAL_JWKS = Symbol('LOCAL_JWKS');

export interface AuthenticatedUser {
  userId: string;
  roles: string[];
  sessionId?: string;
}

/**
 * Verifies `Authorization: Bearer <access token>`: ES256 signature against the identity service's
 * public keys (JWKS, cached, looked up by `kid` so rotated keys keep working), issuer, audience,
 * expiry, and `token_use: access` so that no other kind of token passes for an access token.
 * The token must name its sign-in (`sid`) and expire (`exp`, at most MAX_ACCESS_TOKEN_TTL_SECONDS
 * after `iat`), and that sign-in must not have been revoked: signing out, a password reset or
 * change, or a reused refresh token stops its access tokens at once, not when they expire.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(GatewayConfig) config: GatewayConfig,
    @Inject(LOCAL_JWKS) localJwks: JSONWebKeySet | null,
    @Inject(RevokedSessionsRepository) private readonly revoked: RevokedSessionsRepository,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      algorithms: ['ES256'],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      // passport-jwt hands the key to jsonwebtoken, which takes a KeyObject as well (its types say string | Buffer).
      secretOrKeyProvider: asKeyObjects(
        passportJwtSecret({
          cache: true,
          cacheMaxAge: 10 * 60 * 1000,
          rateLimit: true,
          jwksRequestsPerMinute: 10,
          jwksUri: config.jwksUrl ?? 'local:embedded-key-ring',
          // Embedded mode: the key ring in DATA_DIR instead of an HTTP fetch.
          ...(config.jwksUrl || !localJwks ? {} : { fetcher: async () => localJwks }),
        }) as KeyProvider,
      ) as unknown as SecretOrKeyProvider,
    });
  }

  validate(payload: { sub?: unknown; roles?: unknown; token_use?: unknown; sid?: unknown; exp?: unknown; iat?: unknown }): AuthenticatedUser | false {
    if (payload.token_use !== 'access' || typeof payload.sub !== 'string' || payload.sub.length === 0) return false;
    if (typeof payload.sid !== 'string' || payload.sid.length === 0 || typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return false;
    if (payload.exp - payload.iat > MAX_ACCESS_TOKEN_TTL_SECONDS) return false;
    if (this.revoked.isRevoked(payload.sid)) return false;
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
    return { userId: payload.sub, roles, sessionId: payload.sid };
  }
}

type KeyProvider = (request: unknown, rawJwtToken: string, done: (err: unknown, key?: string | KeyObject | null) => void) => void;

/** Distinct public keys remembered as key objects; more (many rotations) starts the memo afresh. */
const MAX_KEY_OBJECTS = 16;

/**
 * jwks-rsa hands out each key (looked up by `kid`, cached) as a PEM string, and jsonwebtoken would
 * parse that PEM into a key object again on every request (`createPublicKey`, a few percent of the
 * gateway's CPU under load). This keeps the key object per PEM, so a rotated key (a new `kid`, a new
 * PEM) gets its own and the JWKS cache still decides which keys are valid.
 */
export function asKeyObjects(provider: KeyProvider): KeyProvider {
  const keyObjects = new Map<string, KeyObject>();
  return (request, rawJwtToken, done) =>
    provider(request, rawJwtToken, (err, key) => {
      if (err || typeof key !== 'string') return done(err, key);
      let keyObject = keyObjects.get(key);
      if (!keyObject) {
        try {
          keyObject = createPublicKey(key);
        } catch (error) {
          return done(error, null);
        }
        if (keyObjects.size >= MAX_KEY_OBJECTS) keyObjects.clear();
        keyObjects.set(key, keyObject);
      }
      return done(null, keyObject);
    });
}
