import { mkdir, open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * An append-only file of JSON lines: the in-process bus's on-disk streams and consumer positions.
 * Appends are serialized (lines never interleave) and, with `sync`, on disk before they resolve.
 */
export class AppendLog {
  private file?: Promise<FileHandle>;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  /**
   * Every record written so far. A torn last line (the process died mid-write, so that record
   * was never acknowledged to anyone) is cut off, so later appends start on a clean line.
   */
  async load<T>(): Promise<T[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    if (complete.length < text.length) await truncate(this.path, Buffer.byteLength(complete));
    return complete
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line, i) => {
        try {
          return JSON.parse(line) as T;
        } catch (err) {
          throw new Error(`${this.path}: line ${i + 1} is not JSON`, { cause: err });
        }
      });
  }

  append(record: unknown, sync: boolean): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    const write = this.tail.then(async () => {
      const file = await this.handle();
      await file.appendFile(line);
      if (sync) await file.datasync();
    });
    this.tail = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.tail;
    const file = this.file;
    this.file = undefined;
    if (file) await (await file).close();
  }

  private handle(): Promise<FileHandle> {
    this.file ??= mkdir(dirname(this.path), { recursive: true }).then(() => open(this.path, 'a'));
    return this.file;
  }
}
