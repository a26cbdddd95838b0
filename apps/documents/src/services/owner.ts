import { randomUUID } from 'node:crypto';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';

/** User ids as identity issues them (UUIDs) and as they may appear in a storage key. */
const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The signed-in user, from the caller identity the gateway built from the verified token. */
export function requireOwner(caller: CallerIdentity): string {
  if (!caller.userId || !OWNER_ID.test(caller.userId))
    throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
  return caller.userId;
}

/** The identity the service's own event handlers act under (in audit records and logs). */
export function systemCaller(correlationId: string = randomUUID()): CallerIdentity {
  return { userId: 'system', roles: ['system'], correlationId };
}

export const NOT_FOUND_MESSAGE = 'Document not found.';
