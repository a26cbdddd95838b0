import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { DurableFileWriter } from './durable-file-writer';

const MiB = 1024 * 1024;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'durable-writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `count` pieces of `size` random bytes, and all of them together. */
function pieces(count: number, size: number): { parts: Buffer[]; all: Buffer } {
  const parts = Array.from({ length: count }, () => randomBytes(size));
  return { parts, all: Buffer.concat(parts) };
}

/** Records the order of the file handle's writes, flushes and close. */
function spyOnHandle(handle: Awaited<ReturnType<typeof open>>): string[] {
  const calls: string[] = [];
  for (const name of ['datasync', 'sync', 'close'] as const) {
    const original = handle[name].bind(handle);
    jest.spyOn(handle, name).mockImplementation(() => {
      calls.push(name);
      return original();
    });
  }
  return calls;
}

describe('DurableFileWriter', () => {
  it('writes every byte, flushes in the background as it goes and fsyncs before closing', async () => {
    const file = path.join(dir, 'blob');
    const handle = await open(file, 'wx');
    const calls = spyOnHandle(handle);
    const { parts, all } = pieces(40, 256 * 1024); // 10 MiB

    const writer = new DurableFileWriter(handle, 2 * MiB);
    await pipeline(Readable.from(parts), writer);

    expect((await readFile(file)).equals(all)).toBe(true);
    expect(writer.bytesWritten).toBe(all.length);
    // One background flush per 2 MiB at most (fewer when one is still running), then sync, then close.
    const flushes = calls.filter((c) => c === 'datasync').length;
    expect(flushes).toBeGreaterThanOrEqual(1);
    expect(flushes).toBeLessThanOrEqual(5);
    expect(calls.slice(-2)).toEqual(['sync', 'close']);
  });

  it('does not flush in the background below the threshold, only the final fsync', async () => {
    const handle = await open(path.join(dir, 'small'), 'wx');
    const calls = spyOnHandle(handle);
    await pipeline(Readable.from([Buffer.from('%PDF-1.7 small')]), new DurableFileWriter(handle, MiB));
    expect(calls).toEqual(['sync', 'close']);
  });

  it('fails the stream when a background flush fails, and closes the file', async () => {
    const handle = await open(path.join(dir, 'failing'), 'wx');
    jest.spyOn(handle, 'datasync').mockRejectedValue(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const close = jest.spyOn(handle, 'close');
    const { parts } = pieces(16, 256 * 1024);

    await expect(pipeline(Readable.from(parts), new DurableFileWriter(handle, MiB))).rejects.toThrow('EIO');
    expect(close).toHaveBeenCalled();
  });

  it('closes the file without a final fsync when the source fails', async () => {
    const handle = await open(path.join(dir, 'aborted'), 'wx');
    const calls = spyOnHandle(handle);
    const source = Readable.from(
      (async function* () {
        yield randomBytes(1024);
        throw new Error('client disconnected');
      })(),
    );

    await expect(pipeline(source, new DurableFileWriter(handle, MiB))).rejects.toThrow('client disconnected');
    expect(calls).toEqual(['close']);
  });

  it('writes what is left when the system writes fewer bytes than asked', async () => {
    const file = path.join(dir, 'short-writes');
    const handle = await open(file, 'wx');
    const writev = handle.writev.bind(handle);
    // At most 1000 bytes per call, as a full disk or a signal can make writev do.
    jest
      .spyOn(handle, 'writev')
      .mockImplementation(async (buffers) => {
        let left = 1000;
        const some: Buffer[] = [];
        for (const buffer of buffers as Buffer[]) {
          if (left === 0) break;
          some.push(buffer.subarray(0, Math.min(left, buffer.length)));
          left -= some[some.length - 1]!.length;
        }
        const { bytesWritten } = await writev(some);
        return { bytesWritten, buffers };
      });
    const { parts, all } = pieces(7, 3001);

    await pipeline(Readable.from(parts), new DurableFileWriter(handle));

    expect((await readFile(file)).equals(all)).toBe(true);
  });
});
