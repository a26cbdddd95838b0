import type { PGlite } from '@electric-sql/pglite';

/** Extended-protocol messages that leave state in the session until the client's Sync. */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

interface Item {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

type ProtocolDb = Pick<PGlite, 'runExclusive' | 'execProtocolRawStream' | 'isInTransaction' | 'exec'>;

/**
 * The query queue of the embedded database's socket server. PGlite has ONE Postgres session for
 * every connection, and @electric-sql/pglite-socket's own queue hands the session to another
 * connection between any two protocol messages unless a transaction is open. A client's
 * Parse/Bind/Execute/Sync sequence (every parameterised query) could then be cut in two, and
 * another connection's Parse would replace its unnamed statement ("unnamed prepared statement does
 * not exist", or worse, parameters bound to someone else's SQL).
 *
 * Here a connection that sends an extended-protocol message owns the session until its Sync has
 * run, and, as before, for as long as its transaction is open. Messages of others wait, in order.
 */
export class SessionAwareQueryQueue {
  private queue: Item[] = [];
  private processing = false;
  private owner: number | null = null;

  constructor(private readonly db: ProtocolDb) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that went away mid-transaction or mid-sequence gives the session back. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.process();
  }

  private next(): Item | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item!.onData(data);
              },
            }),
          );
        } catch (error) {
          item.reject(error);
          continue;
        }
        const type = item.message[0] ?? 0;
        this.owner = this.db.isInTransaction() || EXTENDED.has(type) ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}
