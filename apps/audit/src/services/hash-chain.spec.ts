import { chainHash, ChainVerifier, GENESIS_HASH, type StoredEntry } from './hash-chain';

function chain(count: number): StoredEntry[] {
  const entries: StoredEntry[] = [];
  let prevHash = GENESIS_HASH;
  for (let position = 1; position <= count; position += 1) {
    const entry: StoredEntry = {
      position,
      eventId: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)),
      recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position, 500)),
      service: 'documents',
      actor: `user-${position % 3}`,
      action: 'document.list',
      entityType: 'document',
      entityId: null,
      patientId: 'patient-1',
      outcome: 'success',
      ip: '127.0.0.1',
      userAgent: null,
      correlationId: `c-${position}`,
      policy: 'owner',
      prevHash,
      hash: '',
    };
    entry.hash = chainHash(prevHash, entry);
    prevHash = entry.hash;
    entries.push(entry);
  }
  return entries;
}

function verify(entries: StoredEntry[]) {
  const verifier = new ChainVerifier();
  for (const entry of entries) {
    const broken = verifier.check(entry);
    if (broken) return broken;
  }
  return null;
}

describe('audit hash chain', () => {
  it('accepts an intact chain', () => {
    expect(verify(chain(10))).toBeNull();
  });

  it('finds an edited entry at its position', () => {
    const entries = chain(10);
    entries[6] = { ...entries[6]!, actor: 'someone-else' };
    expect(verify(entries)).toEqual({ position: 7, reason: 'hash-mismatch' });
  });

  it('finds a deleted entry where the gap starts', () => {
    const entries = chain(10);
    entries.splice(3, 1);
    expect(verify(entries)).toEqual({ position: 4, reason: 'gap' });
  });

  it('finds a deleted entry even when later positions were renumbered', () => {
    const entries = chain(10);
    entries.splice(3, 1);
    const renumbered = entries.map((e, i) => ({ ...e, position: i + 1 }));
    expect(verify(renumbered)).toEqual({ position: 4, reason: 'broken-link' });
  });

  it('finds two swapped entries (contents exchanged between positions)', () => {
    const entries = chain(10);
    const a = entries[2]!;
    const b = entries[5]!;
    entries[2] = { ...b, position: 3 };
    entries[5] = { ...a, position: 6 };
    expect(verify(entries)).toEqual({ position: 3, reason: 'broken-link' });
  });

  it('finds a re-hashed forged entry by the link to the next one', () => {
    const entries = chain(5);
    const forged = { ...entries[1]!, actor: 'forger' };
    forged.hash = chainHash(forged.prevHash, forged);
    entries[1] = forged;
    expect(verify(entries)).toEqual({ position: 3, reason: 'broken-link' });
  });
});
