/**
 * Keeps the last `capacity` bytes of a stream (plus at most one chunk), holding references to the
 * chunks rather than copying them. The end of a file is where a PDF's trailer and a zip's central
 * directory live, and a streamed upload only has it once everything else has gone by.
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes seen in all. */
  total = 0;

  constructor(readonly capacity: number) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.held += chunk.length;
    this.total += chunk.length;
    for (
      let first = this.chunks[0];
      this.chunks.length > 1 && first && this.held - first.length >= this.capacity;
      first = this.chunks[0]
    ) {
      this.chunks.shift();
      this.held -= first.length;
    }
  }

  /** The last min(total, capacity) bytes, as one buffer. */
  bytes(): Buffer {
    const all = Buffer.concat(this.chunks, this.held);
    return all.length > this.capacity ? all.subarray(all.length - this.capacity) : all;
  }

  /** Offset in the whole stream of the first byte of {@link bytes}. */
  get start(): number {
    return this.total - Math.min(this.held, this.capacity);
  }
}
