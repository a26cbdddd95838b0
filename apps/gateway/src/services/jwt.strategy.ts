import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { JSONWebKeySet } from 'jose';
import { GatewayConfig } from '../config';

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
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(GatewayConfig) config: GatewayConfig, @Inject(LOCAL_JWKS) localJwks: JSONWebKeySet | null) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      algorithms: ['ES256'],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      secretOrKeyProvider: passportJwtSecret({
        cache: true,
        cacheMaxAge: 10 * 60 * 1000,
        rateLimit: true,
        jwksRequestsPerMinute: 10,
        jwksUri: config.jwksUrl ?? 'local:embedded-key-ring',
        // Embedded mode: the key ring in DATA_DIR instead of an HTTP fetch.
        ...(config.jwksUrl || !localJwks ? {} : { fetcher: async () => localJwks }),
      }),
    });
  }

  validate(payload: { sub?: unknown; roles?: unknown; token_use?: unknown; sid?: unknown }): AuthenticatedUser | false {
    if (payload.token_use !== 'access' || typeof payload.sub !== 'string' || payload.sub.length === 0) return false;
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
    return { userId: payload.sub, roles, ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}) };
  }
}
