/**
 * Gathers the items submitted while a write is under way into the next write: many callers, one
 * transaction per batch, each caller's promise settling with its own item's result once that
 * batch has committed. A batch that fails is retried one item at a time, so a bad item fails alone
 * and the others still go in.
 *
 * With one caller at a time it writes batches of one (no waiting, no timer): batching costs nothing
 * when the load is light and grows with the load (the writer is busy, the queue fills).
 */
export class AppendBatcher<T, R> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch: number,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // setImmediate: the deliveries that arrived together (one pull from the stream) join this batch.
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.write(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => entry.resolve(results[i]!));
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          for (const entry of batch) {
            try {
              entry.resolve((await this.write([entry.item]))[0]!);
            } catch (itemError) {
              entry.reject(itemError);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
