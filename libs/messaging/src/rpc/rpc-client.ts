import { randomUUID } from 'node:crypto';
import type { ClientProxy } from '@nestjs/microservices';
import { NatsRecordBuilder } from '@nestjs/microservices';
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/nats-core';
import { DomainError, isErrorCode, type CallerIdentity, type RpcReply, type RpcRequest, type RpcSubject } from '@medfolio/contracts';
import { EmptyError, filter, firstValueFrom, takeUntil, timeout, TimeoutError, type Observable, type Subscription } from 'rxjs';
import { unavailableError } from './dependency-errors';
import { callerHeaders } from './headers';

export type RpcTransportKind = 'nats' | 'in-process';

/** Options of one call. */
export interface RpcCallOptions {
  /** Replaces the client's time-out for this call (e.g. a call that reads a whole file). */
  timeoutMs?: number;
  /**
   * Retry while NATS answers "no responders" (no replica subscribes: a single-replica service whose
   * pod is being replaced), for at most {@link NO_RESPONDERS_RETRY_MS} within the time-out. Safe for
   * every call, reads or writes: "no responders" means no instance received the request. Default
   * true; a readiness probe passes false to hear "unavailable" at once.
   */
  retryNoResponders?: boolean;
}

/** How long a call keeps retrying while nobody serves its subject, before it answers 503. */
export const NO_RESPONDERS_RETRY_MS = 3000;
const NO_RESPONDERS_BACKOFF_MS = [50, 100, 200, 400, 500];

/**
 * Request/reply from the gateway (or a service) to a service: one call = one subject, a payload,
 * and the caller's identity in headers. Every call has a time-out. Whatever goes wrong comes back
 * as a DomainError with a typed code, which the gateway maps to HTTP.
 */
export class RpcClient {
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type, @typescript-eslint/no-explicit-any
    private readonly client: ClientProxy<Record<never, Function>, any>,
    private readonly kind: RpcTransportKind,
    private readonly timeoutMs: number,
  ) {
    this.connectionLost = client.status.pipe(filter((status) => status === 'disconnected'));
  }

  /** Emits when the NATS connection drops (replays it to a call made while it is down). */
  private readonly connectionLost: Observable<unknown>;

  /**
   * Calls `subject` with the payload its contract names (libs/contracts `RpcMap`) and answers its reply type.
   * `options.timeoutMs` replaces the client's time-out for this call (e.g. a call that reads a whole file).
   */
  send<S extends RpcSubject>(subject: S, data: RpcRequest<S>, caller: CallerIdentity, options: RpcCallOptions = {}): Promise<RpcReply<S>> {
    return this.sendUnchecked<RpcReply<S>>(subject, data, caller, options);
  }

  /** A call outside the contract map: only for tests of the transports themselves. */
  async sendUnchecked<TResult>(subject: string, data: unknown, caller: CallerIdentity, options: RpcCallOptions = {}): Promise<TResult> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    try {
      if (this.kind === 'nats') return await this.requestOverNatsRetrying<TResult>(subject, data, caller, timeoutMs, options.retryNoResponders ?? true);
      const record = new NatsRecordBuilder(data).setHeaders(this.headersFor(caller)).build();
      return await firstValueFrom(this.client.send<TResult>(subject, record).pipe(timeout(timeoutMs), takeUntil(this.connectionLost)));
    } catch (error) {
      // The connection dropped while the call was under way: the reply will not come; 503 now, not at the time-out.
      if (error instanceof EmptyError) throw unavailableError();
      throw toDomainError(error, subject);
    }
  }

  /**
   * {@link requestOverNats}, again while NATS answers "no responders" (the request reached nobody),
   * with a short back-off, for at most NO_RESPONDERS_RETRY_MS and never past the call's time-out.
   */
  private async requestOverNatsRetrying<TResult>(subject: string, data: unknown, caller: CallerIdentity, timeoutMs: number, retry: boolean): Promise<TResult> {
    const started = Date.now();
    const retryUntil = started + (retry ? Math.min(NO_RESPONDERS_RETRY_MS, timeoutMs) : 0);
    for (let attempt = 0; ; attempt += 1) {
      const left = started + timeoutMs - Date.now();
      try {
        return await this.requestOverNats<TResult>(subject, data, caller, Math.max(left, 1));
      } catch (error) {
        const pause = NO_RESPONDERS_BACKOFF_MS[Math.min(attempt, NO_RESPONDERS_BACKOFF_MS.length - 1)] ?? 500;
        if (!isNoResponders(error) || Date.now() + pause >= retryUntil) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /**
   * One NATS request on the connection's shared reply subscription (nats.js' muxed inbox), in the
   * packet format Nest's NATS server reads and answers ({pattern, data, id} -> {id, response | err}).
   * Nest's own client subscribes a fresh inbox for every call (SUB, PUB, then UNSUB: three protocol
   * operations, two socket writes and a change of the server's subscription list per request),
   * which showed in the gateway's profile.
   */
  private async requestOverNats<TResult>(subject: string, data: unknown, caller: CallerIdentity, timeoutMs: number): Promise<TResult> {
    await this.client.connect();
    const connection = this.client.unwrap<NatsConnection>();
    const packet = JSON.stringify({ pattern: subject, data, id: randomUUID() });
    const pending = connection.request(subject, packet, { timeout: timeoutMs, headers: this.headersFor(caller) as MsgHdrs });
    pending.catch(() => undefined); // settled after a lost connection ended the call: nobody waits for it
    // The connection dropping (or already down) ends the call with 503 at once, not at its time-out.
    let lost: Subscription | undefined;
    const dropped = new Promise<never>((_, reject) => {
      lost = this.connectionLost.subscribe(() => reject(unavailableError()));
    });
    let reply: Awaited<typeof pending>;
    try {
      reply = await Promise.race([pending, dropped]);
    } finally {
      lost?.unsubscribe();
    }
    const answer = reply.json<{ err?: unknown; response?: TResult }>();
    if (answer.err !== undefined && answer.err !== null) throw answer.err;
    return answer.response as TResult;
  }

  private headersFor(caller: CallerIdentity): unknown {
    const record = callerHeaders(caller);
    if (this.kind === 'in-process') return record;
    const hdrs = natsHeaders();
    for (const [key, value] of Object.entries(record)) hdrs.set(key, value);
    return hdrs;
  }

  /** Connects now rather than on the first call (start-up fails early if NATS is unreachable). */
  async connect(): Promise<void> {
    await this.client.connect();
  }

  /** Readiness: the NATS connection is open (always true in-process). */
  async isHealthy(): Promise<boolean> {
    if (this.kind === 'in-process') return true;
    try {
      const connection = this.client.unwrap<{ isClosed(): boolean; flush(): Promise<void> }>();
      if (connection.isClosed()) return false;
      await connection.flush();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Turns what a transport threw into a DomainError (never leaking internals to the caller). */
export function toDomainError(error: unknown, subject: string): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof TimeoutError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new DomainError('UPSTREAM_TIMEOUT', `The service did not answer in time`);
  }
  // Nest's NATS client reports NATS' "no responders" (nobody subscribes to the subject) this way.
  // (EmptyResponseException is not exported from the package root and sets no name: its class is.)
  if (error instanceof Error && error.constructor.name === 'EmptyResponseException') return unavailable();
  // While NATS is away, Nest's client rejects every call at once with this string (not an Error).
  if (typeof error === 'string' && /connection lost|reconnect/i.test(error)) return unavailable();
  if (error && typeof error === 'object') {
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
    if (isErrorCode(code) && typeof message === 'string') {
      return new DomainError(code, message, details as Record<string, string[]> | undefined);
    }
    const text = typeof message === 'string' ? message : '';
    // NATS answers 503 "no responders" when no service instance subscribes to the subject.
    if (/no responders|503|CONNECTION_CLOSED|Connection closed|closed connection|not connected|disconnect/i.test(text) || code === '503') {
      return unavailable();
    }
  }
  return new DomainError('INTERNAL', `Request to ${subject.split('.')[0]} failed`);
}

/** NATS' "no responders" status (nats.js: a RequestError caused by NoRespondersError). */
export function isNoResponders(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const check = (error as { isNoResponders?: unknown }).isNoResponders;
  if (typeof check === 'function') return Boolean((check as () => boolean).call(error));
  return error.name === 'NoRespondersError' || (error.cause instanceof Error && error.cause.name === 'NoRespondersError');
}

function unavailable(): DomainError {
  return unavailableError();
}
