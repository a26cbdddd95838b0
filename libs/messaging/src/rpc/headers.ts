import { HEADER } from '../events/event-bus';
import type { CallerIdentity } from '@medfolio/contracts';

export type HeaderRecord = Record<string, string>;

/** Accepts a plain record or NATS MsgHdrs and returns a lower-cased plain record. */
export function toHeaderRecord(headers: unknown): HeaderRecord {
  const out: HeaderRecord = {};
  if (!headers || typeof headers !== 'object') return out;
  const maybeHdrs = headers as { keys?: () => string[]; get?: (k: string) => string };
  if (typeof maybeHdrs.keys === 'function' && typeof maybeHdrs.get === 'function') {
    for (const key of maybeHdrs.keys()) out[key.toLowerCase()] = maybeHdrs.get(key);
    return out;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value === 'string') out[key.toLowerCase()] = value;
  }
  return out;
}

/** The headers every message carries: the caller (as JSON) and the correlation id. */
export function callerHeaders(caller: CallerIdentity): HeaderRecord {
  return { [HEADER.caller]: JSON.stringify(caller), [HEADER.correlationId]: caller.correlationId };
}

/** Reads the caller back; a missing or malformed header yields an anonymous caller. */
export function callerFromHeaders(get: (name: string) => string | undefined): CallerIdentity {
  const correlationId = get(HEADER.correlationId) || 'none';
  const raw = get(HEADER.caller);
  if (!raw) return { roles: [], correlationId };
  try {
    const parsed = JSON.parse(raw) as Partial<CallerIdentity>;
    const caller: CallerIdentity = {
      roles: Array.isArray(parsed.roles) ? parsed.roles.filter((r): r is string => typeof r === 'string') : [],
      correlationId: typeof parsed.correlationId === 'string' ? parsed.correlationId : correlationId,
    };
    if (typeof parsed.userId === 'string') caller.userId = parsed.userId;
    if (typeof parsed.sessionId === 'string') caller.sessionId = parsed.sessionId;
    if (typeof parsed.ip === 'string') caller.ip = parsed.ip;
    if (typeof parsed.userAgent === 'string') caller.userAgent = parsed.userAgent;
    const actor = parsed.actor;
    if (actor && typeof actor.userId === 'string' && (actor.role === 'guardian' || actor.role === 'manage' || actor.role === 'view')) {
      caller.actor = { userId: actor.userId, role: actor.role };
    }
    return caller;
  } catch {
    return { roles: [], correlationId };
  }
}
