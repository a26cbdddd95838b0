/**
 * A FIFO of bytes that arrive in arbitrary pieces and leave in the sizes the format needs,
 * copying only the bytes taken (not everything buffered) on each take.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private total = 0;

  get length(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /** The first `n` bytes without removing them; `n` must not exceed `length`. */
  peek(n: number): Buffer {
    return this.read(n, false);
  }

  /** Removes and returns the first `n` bytes; `n` must not exceed `length`. */
  take(n: number): Buffer {
    return this.read(n, true);
  }

  private read(n: number, remove: boolean): Buffer {
    if (n > this.total) throw new RangeError(`ByteQueue holds ${this.total} bytes, ${n} requested`);
    const parts: Buffer[] = [];
    let needed = n;
    let index = 0;
    while (needed > 0) {
      const chunk = this.chunks[index] as Buffer;
      const part = chunk.length <= needed ? chunk : chunk.subarray(0, needed);
      parts.push(part);
      needed -= part.length;
      index += 1;
    }
    if (remove) {
      const last = parts[parts.length - 1];
      const lastChunk = this.chunks[index - 1];
      // A partly consumed chunk stays in the queue as its unread rest.
      const rest = last && lastChunk && last.length < lastChunk.length ? [lastChunk.subarray(last.length)] : [];
      this.chunks = [...rest, ...this.chunks.slice(index)];
      this.total -= n;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, n);
  }
}
