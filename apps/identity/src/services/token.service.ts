import { Inject, Injectable } from '@nestjs/common';
import { DomainError, PATIENT_ROLE, PROVIDER_ROLE, type TokenPair } from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { signAccessToken } from '@medfolio/security';
import { IdentityConfig } from '../config';
import { KeysRepository } from '../repositories/keys.repository';
import { ProviderLicensesRepository } from '../repositories/provider-licenses.repository';
import { SessionsRepository, type RotateResult } from '../repositories/sessions.repository';
import { randomToken, sha256 } from './secrets';

const INVALID_REFRESH = 'Your session has expired. Please sign in again.';

/**
 * Access tokens: ES256 JWTs, 15 minutes, with the sign-in's id as `sid`. Refresh tokens: opaque,
 * 256-bit, stored hashed, rotated on every use; reuse of a rotated one revokes the whole sign-in.
 */
@Injectable()
export class TokenService {
  constructor(
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(KeysRepository) private readonly keys: KeysRepository,
    @Inject(SessionsRepository) private readonly sessions: SessionsRepository,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ProviderLicensesRepository) private readonly licenses: ProviderLicensesRepository,
  ) {}

  /** A new sign-in: a new refresh family. */
  async startSession(userId: string): Promise<TokenPair & { sessionId: string }> {
    const refresh = randomToken();
    const sessionId = await this.sessions.startFamily(userId, sha256(refresh), this.refreshExpiry());
    return { access: await this.accessToken(userId, sessionId), refresh, sessionId };
  }

  /** Exchanges a refresh token. `onReuse` is told when a stolen-token pattern revoked a sign-in. */
  async refresh(refresh: string, onReuse: (userId: string, familyId: string) => Promise<void>): Promise<TokenPair> {
    const next = randomToken();
    const now = new Date();
    const result: RotateResult = await this.sessions.rotate(sha256(refresh), { tokenHash: sha256(next), expiresAt: this.refreshExpiry(now) }, now);
    switch (result.kind) {
      case 'rotated':
        return { access: await this.accessToken(result.userId, result.familyId), refresh: next };
      case 'reused': {
        const sinceRotation = now.getTime() - result.rotatedAt.getTime();
        if (sinceRotation > this.config.refreshReuseGraceSeconds * 1000) {
          if (await this.sessions.revokeFamily(result.familyId, 'refresh token reuse')) this.relay.kick();
          await onReuse(result.userId, result.familyId);
        }
        throw new DomainError('UNAUTHENTICATED', INVALID_REFRESH);
      }
      case 'unknown':
      case 'expired':
      case 'revoked':
        throw new DomainError('UNAUTHENTICATED', INVALID_REFRESH);
    }
  }

  /**
   * Roles are read when the token is made: a licence verified now reaches the next token (the web
   * app refreshes at once after a verification; an access token issued before keeps its old roles
   * until it expires or is refreshed). A rejected claim, or one dropped by a name change, is no role.
   */
  async accessToken(userId: string, sessionId: string): Promise<string> {
    const ring = await this.keys.signingKeys();
    const roles = (await this.licenses.holdsRole(userId)) ? [PATIENT_ROLE, PROVIDER_ROLE] : [PATIENT_ROLE];
    return signAccessToken(
      ring.current,
      { sub: userId, roles, sid: sessionId },
      { issuer: this.config.jwtIssuer, audience: this.config.jwtAudience, ttlSeconds: this.config.accessTokenTtlSeconds },
    );
  }

  private refreshExpiry(now = new Date()): Date {
    return new Date(now.getTime() + this.config.refreshTokenTtlDays * 24 * 3600 * 1000);
  }
}
