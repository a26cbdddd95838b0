import { connect, type Socket } from 'node:net';

/**
 * A client for clamd's INSTREAM command (ClamAV's scanning daemon), over TCP or a unix socket.
 *
 * Written here rather than taken from npm: the protocol is small (a command, length-prefixed chunks,
 * a zero-length chunk, one reply line), and what uploads need is a stream that is fed chunk by chunk
 * as the file passes to storage, with backpressure (a chunk is taken only when clamd took the last),
 * and with every failure reported as such so that the caller fails closed. `clamscan` (2.x) wraps
 * the command-line scanners and local files and buffers its passthrough scans; `clamdjs` is a one-shot
 * helper that is no longer maintained. Neither gives that.
 *
 * The protocol (clamd(8)): send `zINSTREAM\0`, then chunks as a 4-byte big-endian length and the
 * bytes, then a zero length; clamd answers `stream: OK`, `stream: <signature> FOUND` or
 * `<reason> ERROR` (e.g. `INSTREAM size limit exceeded. ERROR` past its StreamMaxLength), ended by
 * `\0` with the `z` prefix, and closes the connection.
 */

/** Where clamd listens: TCP host and port, or a unix socket path. */
export type ClamdAddress = { host: string; port: number } | { path: string };

/** What a scan found. */
export type ClamdVerdict = { infected: false } | { infected: true; signature: string };

/** clamd could not give a verdict: not reachable, closed the connection, timed out, or answered ERROR. */
export class ClamdUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClamdUnavailableError';
  }
}

export interface ClamdOptions {
  /** Connecting, and each wait for clamd (taking a chunk, answering), in milliseconds. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** clamd reads each chunk into memory: pieces of at most this size. */
const MAX_CHUNK = 1024 * 1024;

/**
 * The address from `tcp://host:port` (CLAMD_URL) or a unix socket path (CLAMD_SOCKET); the socket
 * wins if both are given; null if neither is.
 */
export function clamdAddress(url?: string | null, socket?: string | null): ClamdAddress | null {
  if (socket) return { path: socket };
  if (!url) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'tcp:' || !parsed.hostname || !parsed.port) throw new Error('A clamd URL has the form tcp://host:port');
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port) };
}

export function describeClamdAddress(address: ClamdAddress): string {
  return 'path' in address ? `unix:${address.path}` : `tcp://${address.host}:${address.port}`;
}

/** Parses clamd's answer to INSTREAM (without its ending `\0`). */
export function parseClamdReply(reply: string): ClamdVerdict {
  const text = reply.replace(/\0+$/, '').trim();
  if (text === 'stream: OK') return { infected: false };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found?.[1]) return { infected: true, signature: found[1] };
  throw new ClamdUnavailableError(text.endsWith('ERROR') ? `clamd could not scan the stream: ${text}` : `clamd gave an unexpected answer: ${text.slice(0, 200)}`);
}

/** One INSTREAM scan: `write` each chunk in order, then `finish` for the verdict (or `abort`). */
export class ClamdStream {
  private reply = Buffer.alloc(0);
  private failure: ClamdUnavailableError | null = null;
  private closed = false;
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly socket: Socket,
    private readonly address: ClamdAddress,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (data: Buffer) => {
      this.reply = Buffer.concat([this.reply, data]);
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.fail(`clamd at ${describeClamdAddress(address)} failed: ${error.code ?? error.message}`);
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Connects and starts an INSTREAM scan; rejects with {@link ClamdUnavailableError} if clamd cannot be reached. */
  static async open(address: ClamdAddress, options: ClamdOptions = {}): Promise<ClamdStream> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const socket = connect('path' in address ? { path: address.path } : { host: address.host, port: address.port });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ClamdUnavailableError(`clamd at ${describeClamdAddress(address)} did not accept a connection within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new ClamdUnavailableError(`clamd at ${describeClamdAddress(address)} cannot be reached: ${error.code ?? error.message}`));
      });
    });
    const stream = new ClamdStream(socket, address, timeoutMs);
    socket.write('zINSTREAM\0');
    return stream;
  }

  /** Sends a chunk; resolves once clamd's connection takes more. Rejects if clamd failed or answered early. */
  async write(chunk: Buffer): Promise<void> {
    for (let offset = 0; offset < chunk.length; offset += MAX_CHUNK) {
      const piece = chunk.subarray(offset, offset + MAX_CHUNK);
      this.assertOpen();
      const length = Buffer.alloc(4);
      length.writeUInt32BE(piece.length);
      this.socket.write(length);
      if (!this.socket.write(piece)) await this.until(() => !this.socket.writableNeedDrain, 'drain');
    }
    this.assertOpen();
  }

  /** Ends the stream and waits for clamd's verdict. */
  async finish(): Promise<ClamdVerdict> {
    if (this.failure) throw this.failure;
    if (!this.answered()) {
      this.socket.write(Buffer.alloc(4));
      await this.until(() => this.answered() || this.closed, 'answer');
    }
    if (!this.answered()) throw this.failure ?? new ClamdUnavailableError(`clamd at ${describeClamdAddress(this.address)} closed the connection without an answer`);
    const text = this.reply.toString('utf8');
    this.socket.end();
    return parseClamdReply(text.slice(0, text.indexOf('\0')));
  }

  /** Gives up the scan (the upload failed for another reason). */
  abort(): void {
    this.socket.destroy();
  }

  private answered(): boolean {
    return this.reply.includes(0);
  }

  /** clamd answers before the end only to refuse (e.g. past its StreamMaxLength): that is a failure. */
  private assertOpen(): void {
    if (this.failure) throw this.failure;
    if (this.answered()) {
      const text = this.reply.toString('utf8');
      throw this.fail(`clamd stopped the scan: ${text.slice(0, text.indexOf('\0')).trim()}`);
    }
    if (this.closed || this.socket.destroyed) throw this.fail(`clamd at ${describeClamdAddress(this.address)} closed the connection`);
  }

  /** Records the first failure (and wakes whoever waits); returns the one recorded. */
  private fail(message: string): ClamdUnavailableError {
    const failure = (this.failure ??= new ClamdUnavailableError(message));
    this.wake();
    return failure;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Waits until `done()` (checked on every socket event and drain), or a failure, for at most the
   * timeout (only waits for clamd are timed: a slow upload between chunks is clamd's ReadTimeout's).
   */
  private until(done: () => boolean, what: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(`clamd at ${describeClamdAddress(this.address)} did not ${what === 'drain' ? 'take the stream' : 'answer'} within ${this.timeoutMs} ms`);
        this.socket.destroy();
      }, this.timeoutMs);
      const check = () => {
        if (this.failure) finish(this.failure);
        else if (done()) finish(null);
        else if (this.closed && what === 'drain') finish(new ClamdUnavailableError(`clamd at ${describeClamdAddress(this.address)} closed the connection`));
      };
      const finish = (error: Error | null) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        this.socket.off('drain', check);
        if (error) reject(error);
        else resolve();
      };
      this.waiters.add(check);
      this.socket.on('drain', check);
      check();
    });
  }
}

/** Scans a whole buffer (small files, tests). */
export async function scanWithClamd(address: ClamdAddress, data: Buffer, options: ClamdOptions = {}): Promise<ClamdVerdict> {
  const stream = await ClamdStream.open(address, options);
  try {
    await stream.write(data);
    return await stream.finish();
  } catch (error) {
    stream.abort();
    throw error;
  }
}
