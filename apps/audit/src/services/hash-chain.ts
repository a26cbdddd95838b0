import { createHash } from 'node:crypto';

/** The chain starts from this "previous hash". */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers: everything except the hashes themselves. */
export interface ChainedFields {
  position: number;
  eventId: string;
  occurredAt: Date;
  recordedAt: Date;
  service: string;
  actor: string;
  action: string;
  entityType: string;
  entityId: string | null;
  patientId: string | null;
  outcome: string;
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
  policy: string | null;
}

/**
 * Canonical JSON of an entry: keys in a fixed order, dates as ISO strings with milliseconds,
 * nulls explicit. Two equal entries always give the same text, whatever the database returns.
 */
export function canonicalEntry(entry: ChainedFields): string {
  return JSON.stringify([
    entry.position,
    entry.eventId,
    entry.occurredAt.toISOString(),
    entry.recordedAt.toISOString(),
    entry.service,
    entry.actor,
    entry.action,
    entry.entityType,
    entry.entityId,
    entry.patientId,
    entry.outcome,
    entry.ip,
    entry.userAgent,
    entry.correlationId,
    entry.policy,
  ]);
}

/** hash(n) = SHA-256(hash(n-1) + canonical(entry n)), hex. Covers the position, so reordering shows. */
export function chainHash(prevHash: string, entry: ChainedFields): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalEntry(entry)).digest('hex');
}

export interface StoredEntry extends ChainedFields {
  prevHash: string;
  hash: string;
}

export type ChainBreak = { position: number; reason: 'hash-mismatch' | 'broken-link' | 'gap' };

/**
 * Walks entries in position order and returns the first break, or null if the chain is intact.
 * - an edited row: its hash no longer matches its content ('hash-mismatch')
 * - a deleted row: the positions skip ('gap') or the next row's prev_hash no longer links ('broken-link')
 * - reordered rows: position is hashed, so swapped content fails 'hash-mismatch'
 */
export class ChainVerifier {
  private expectedPosition = 1;
  private prevHash = GENESIS_HASH;

  check(entry: StoredEntry): ChainBreak | null {
    if (entry.position !== this.expectedPosition) return { position: this.expectedPosition, reason: 'gap' };
    if (entry.prevHash !== this.prevHash) return { position: entry.position, reason: 'broken-link' };
    if (chainHash(entry.prevHash, entry) !== entry.hash) return { position: entry.position, reason: 'hash-mismatch' };
    this.expectedPosition += 1;
    this.prevHash = entry.hash;
    return null;
  }

  get checked(): number {
    return this.expectedPosition - 1;
  }
}
