import { mkdir, open, readFile, rename, truncate, type FileHandle } from 'node:fs/promises';
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

  /**
   * Appends one line; resolves once it is written (and on disk, with `sync`). Group commit: the lines
   * appended while a write is under way go out together in the next write, with one datasync for all
   * of them, so concurrent publishers do not wait for each other's fsync one by one.
   */
  append(record: unknown, sync: boolean): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    if (!this.group) {
      const group: PendingGroup = { lines: [], sync: false, done: undefined as unknown as Promise<void> };
      group.done = this.tail.then(async () => {
        if (this.group === group) this.group = undefined; // later appends start the next group
        const file = await this.handle();
        await file.appendFile(group.lines.join(''));
        if (group.sync) await file.datasync();
      });
      this.tail = group.done.catch(() => undefined);
      this.group = group;
    }
    this.group.lines.push(line);
    this.group.sync ||= sync;
    return this.group.done;
  }

  private group?: PendingGroup;

  /**
   * Replaces the whole file with `records`, after the appends in flight: written to a new file,
   * synced, then renamed over the old one, so a crash leaves either the old file or the new one.
   */
  rewrite(records: readonly unknown[]): Promise<void> {
    // Appends from now on start a new group after the rewrite (a group still open would be written
    // before it and then overwritten).
    this.group = undefined;
    const write = this.tail.then(async () => {
      const current = this.file;
      this.file = undefined;
      if (current) await (await current).close();
      await mkdir(dirname(this.path), { recursive: true });
      const next = `${this.path}.rewrite`;
      const file = await open(next, 'w');
      try {
        await file.writeFile(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
        await file.datasync();
      } finally {
        await file.close();
      }
      await rename(next, this.path);
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

interface PendingGroup {
  lines: string[];
  sync: boolean;
  done: Promise<void>;
}
