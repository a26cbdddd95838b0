import { SessionAwareQueryQueue } from './session-queue';

const msg = (type: string, tag: string) => new Uint8Array([type.charCodeAt(0), ...Buffer.from(tag)]);

/** A stand-in for PGlite whose every protocol message takes a real turn of the event loop. */
function fakeDb() {
  const log: string[] = [];
  let inTransaction = false;
  return {
    log,
    db: {
      runExclusive: <T>(fn: () => Promise<T>) => fn(),
      execProtocolRawStream: async (message: Uint8Array) => {
        await new Promise((r) => setTimeout(r, 1));
        const text = Buffer.from(message).toString();
        log.push(text);
        if (text.endsWith('BEGIN')) inTransaction = true;
        if (text.endsWith('COMMIT')) inTransaction = false;
        return [];
      },
      isInTransaction: () => inTransaction,
      exec: async () => [],
    },
  };
}

/** Sends a client's messages one at a time, each after the previous completed (as the socket handler does). */
async function client(queue: SessionAwareQueryQueue, id: number, messages: Uint8Array[]) {
  for (const m of messages) await queue.enqueue(id, m, () => undefined);
}

describe('SessionAwareQueryQueue', () => {
  it('never lets another connection in between Parse and Sync', async () => {
    const { db, log } = fakeDb();
    const queue = new SessionAwareQueryQueue(db as never);
    const sequence = (c: string) => [msg('P', `${c}1`), msg('B', `${c}2`), msg('E', `${c}3`), msg('S', `${c}4`)];
    await Promise.all([client(queue, 1, sequence('a')), client(queue, 2, sequence('b')), client(queue, 3, sequence('c'))]);
    const owners = log.map((entry) => entry[1]);
    // Each connection's four messages are contiguous.
    const runs = owners.filter((o, i) => i === 0 || o !== owners[i - 1]);
    expect(runs).toHaveLength(3);
    expect(log).toHaveLength(12);
  });

  it('keeps a transaction to its connection until it ends', async () => {
    const { db, log } = fakeDb();
    const queue = new SessionAwareQueryQueue(db as never);
    await Promise.all([
      client(queue, 1, [msg('Q', 'aBEGIN'), msg('Q', 'ainsert'), msg('Q', 'aCOMMIT')]),
      client(queue, 2, [msg('Q', 'bselect'), msg('Q', 'bselect2')]),
    ]);
    const a = log.findIndex((e) => e.endsWith('aBEGIN'));
    expect(log.slice(a, a + 3).map((e) => e[1])).toEqual(['a', 'a', 'a']);
  });

  it('releases the session when its owner disconnects', async () => {
    const { db, log } = fakeDb();
    const queue = new SessionAwareQueryQueue(db as never);
    await queue.enqueue(1, msg('P', 'a1'), () => undefined);
    const waiting = queue.enqueue(2, msg('Q', 'b1'), () => undefined);
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual(['Pa1']);
    await queue.clearTransactionIfNeeded(1);
    await waiting;
    expect(log).toEqual(['Pa1', 'Qb1']);
  });
});
