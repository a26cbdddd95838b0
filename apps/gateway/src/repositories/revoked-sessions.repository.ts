import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IDENTITY_SUBJECTS, MAX_ACCESS_TOKEN_TTL_SECONDS, STREAMS, type RevokedSessions, type SessionsRevokedEvent } from '@medfolio/contracts';
import { EVENT_BUS, type EventBus, type TailHandle } from '@medfolio/messaging';
import { GatewayConfig } from '../config';

/** Revocations are kept this long past the longest token life, for clock skew between machines. */
const SKEW_MS = 60_000;
const KEEP_MS = MAX_ACCESS_TOKEN_TTL_SECONDS * 1000 + SKEW_MS;

/**
 * The sign-ins identity has revoked whose access tokens could still be unexpired: this gateway's own
 * copy, fed by identity's `identity.user.sessions-revoked.v1` events. Every replica tails the
 * IDENTITY stream itself (EventBus.tail) from one token life ago, so a replica that starts or
 * reconnects late still learns every revocation that matters; the gateway does not answer until
 * that replay is done (onApplicationBootstrap runs before listen). Entries leave once the tokens
 * they stop could no longer be valid, so the set stays as small as the revocations of one hour.
 */
@Injectable()
export class RevokedSessionsRepository implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RevokedSessionsRepository.name);
  /** sid -> when its tokens have all expired (ms since the epoch). */
  private readonly revoked = new Map<string, number>();
  private tail?: TailHandle;
  private pruning?: NodeJS.Timeout;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Every service ensures the streams it uses (idempotent), with the deployment's replica count.
    await this.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects], replicas: this.config.natsStreamReplicas });
    this.tail = await this.bus.tail<SessionsRevokedEvent>(
      { stream: STREAMS.IDENTITY.name, filterSubjects: [IDENTITY_SUBJECTS.sessionsRevoked], sinceMs: Date.now() - KEEP_MS },
      (event) => this.add(event.data),
    );
    await this.tail.caughtUp;
    this.pruning = setInterval(() => this.prune(Date.now()), 60_000).unref();
    this.logger.log({ revoked: this.revoked.size }, 'revoked sign-ins loaded');
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.pruning);
    await this.tail?.stop();
  }

  isRevoked(sessionId: string): boolean {
    return this.revoked.has(sessionId);
  }

  /** Exposed for tests and the tail's handler. */
  add(event: SessionsRevokedEvent): void {
    const revokedAt = Date.parse(event.revoked_at);
    const until = (Number.isFinite(revokedAt) ? revokedAt : Date.now()) + KEEP_MS;
    if (until <= Date.now()) return;
    for (const sid of event.session_ids ?? []) this.revoked.set(sid, until);
  }

  /**
   * Sign-ins a call this gateway served revoked (sign-out, password change or reset): refused from now
   * on, before the answer goes out (the event reaches this gateway's tail some milliseconds later, and
   * the other gateways' too).
   */
  revokeNow(sessionIds: readonly string[] | undefined, now = Date.now()): void {
    for (const sid of sessionIds ?? []) this.revoked.set(sid, now + KEEP_MS);
  }

  /** identity's reply without `revoked_session_ids`, once they are refused here (the HTTP answer never carries them). */
  revokeFrom<T extends RevokedSessions>(reply: T): Omit<T, 'revoked_session_ids'> {
    const { revoked_session_ids: revoked, ...rest } = reply;
    this.revokeNow(revoked);
    return rest;
  }

  prune(now: number): void {
    for (const [sid, until] of this.revoked) if (until <= now) this.revoked.delete(sid);
  }

  get size(): number {
    return this.revoked.size;
  }
}
