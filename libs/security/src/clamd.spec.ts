import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { ClamdStream, ClamdUnavailableError, clamdAddress, parseClamdReply, scanWithClamd } from './clamd';

/**
 * The INSTREAM protocol as clamd speaks it, against a small TCP server in this process that decodes
 * what the client sends (command, length-prefixed chunks, zero-length end) and answers as clamd does.
 * The client against the real clamd is covered by apps/documents/src/antivirus.int-spec.ts.
 */
interface Received {
  command: string;
  chunks: number[];
  data: Buffer;
  ended: boolean;
}

type Answer = (received: Received, socket: Socket) => void;

const sockets = new Set<Socket>();

async function fakeClamd(answer: Answer, options: { answerEarlyAfter?: number } = {}): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    const state: Received = { command: '', chunks: [], data: Buffer.alloc(0), ended: false };
    received.push(state);
    let buffer = Buffer.alloc(0);
    let commandDone = false;
    socket.on('data', (bytes: Buffer) => {
      buffer = Buffer.concat([buffer, bytes]);
      if (!commandDone) {
        const end = buffer.indexOf(0);
        if (end < 0) return;
        state.command = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 1);
        commandDone = true;
      }
      while (!state.ended && buffer.length >= 4) {
        const length = buffer.readUInt32BE(0);
        if (length === 0) {
          state.ended = true;
          buffer = buffer.subarray(4);
          answer(state, socket);
          return;
        }
        if (buffer.length < 4 + length) return;
        state.chunks.push(length);
        state.data = Buffer.concat([state.data, buffer.subarray(4, 4 + length)]);
        buffer = buffer.subarray(4 + length);
        if (options.answerEarlyAfter !== undefined && state.data.length >= options.answerEarlyAfter) {
          socket.end('INSTREAM size limit exceeded. ERROR\0');
          return;
        }
      }
    });
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, received };
}

async function close(server: Server): Promise<void> {
  for (const socket of sockets) socket.destroy();
  server.close();
  await once(server, 'close');
}

describe('clamd INSTREAM client', () => {
  it('sends zINSTREAM, each chunk with its 4-byte big-endian length, and a zero length; reads OK as clean', async () => {
    const clamd = await fakeClamd((_r, socket) => socket.end('stream: OK\0'));
    try {
      const stream = await ClamdStream.open({ host: '127.0.0.1', port: clamd.port });
      await stream.write(Buffer.from('hello '));
      await stream.write(Buffer.alloc(0)); // an empty chunk would end the stream: it is not sent
      await stream.write(Buffer.from('world'));
      await expect(stream.finish()).resolves.toEqual({ infected: false });
      expect(clamd.received).toEqual([{ command: 'zINSTREAM', chunks: [6, 5], data: Buffer.from('hello world'), ended: true }]);
    } finally {
      await close(clamd.server);
    }
  });

  it('reads "<signature> FOUND" as infected, naming the signature', async () => {
    const clamd = await fakeClamd((_r, socket) => socket.end('stream: Eicar-Signature FOUND\0'));
    try {
      await expect(scanWithClamd({ host: '127.0.0.1', port: clamd.port }, Buffer.from('x'))).resolves.toEqual({ infected: true, signature: 'Eicar-Signature' });
    } finally {
      await close(clamd.server);
    }
  });

  it('splits a large chunk into pieces of at most 1 MiB, and waits for clamd to take them', async () => {
    const clamd = await fakeClamd((_r, socket) => socket.end('stream: OK\0'));
    try {
      const data = Buffer.alloc(5 * 1024 * 1024 + 10, 7);
      await expect(scanWithClamd({ host: '127.0.0.1', port: clamd.port }, data)).resolves.toEqual({ infected: false });
      expect(clamd.received[0]!.chunks).toEqual([1048576, 1048576, 1048576, 1048576, 1048576, 10]);
      expect(clamd.received[0]!.data.equals(data)).toBe(true);
    } finally {
      await close(clamd.server);
    }
  });

  it('an ERROR answer, an early answer (size limit), a closed connection or no server is unavailable, never clean', async () => {
    const erroring = await fakeClamd((_r, socket) => socket.end('Can\'t allocate memory ERROR\0'));
    const early = await fakeClamd(() => undefined, { answerEarlyAfter: 10 });
    const hangingUp = await fakeClamd((_r, socket) => socket.destroy());
    try {
      await expect(scanWithClamd({ host: '127.0.0.1', port: erroring.port }, Buffer.from('x'))).rejects.toThrow(/could not scan the stream: Can't allocate memory ERROR/);
      const stream = await ClamdStream.open({ host: '127.0.0.1', port: early.port });
      await stream.write(Buffer.alloc(16));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const error = await stream.write(Buffer.alloc(16)).then(() => stream.finish()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClamdUnavailableError);
      expect(String(error)).toMatch(/size limit exceeded/);
      await expect(scanWithClamd({ host: '127.0.0.1', port: hangingUp.port }, Buffer.from('x'))).rejects.toBeInstanceOf(ClamdUnavailableError);
    } finally {
      await Promise.all([close(erroring.server), close(early.server), close(hangingUp.server)]);
    }
    const nobody = await fakeClamd(() => undefined);
    const port = nobody.port;
    await close(nobody.server);
    await expect(ClamdStream.open({ host: '127.0.0.1', port })).rejects.toThrow(/cannot be reached: ECONNREFUSED/);
  });

  it('gives up waiting for an answer after the timeout', async () => {
    const silent = await fakeClamd(() => undefined);
    try {
      await expect(scanWithClamd({ host: '127.0.0.1', port: silent.port }, Buffer.from('x'), { timeoutMs: 200 })).rejects.toThrow(/did not answer within 200 ms/);
    } finally {
      await close(silent.server);
    }
  });

  it('parses addresses and answers', () => {
    expect(clamdAddress('tcp://127.0.0.1:3310')).toEqual({ host: '127.0.0.1', port: 3310 });
    expect(clamdAddress('tcp://127.0.0.1:3310', '/run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(clamdAddress(undefined, undefined)).toBeNull();
    expect(() => clamdAddress('http://127.0.0.1:3310')).toThrow('tcp://host:port');
    expect(parseClamdReply('stream: OK')).toEqual({ infected: false });
    expect(parseClamdReply('stream: Win.Test.EICAR_HDB-1 FOUND\0')).toEqual({ infected: true, signature: 'Win.Test.EICAR_HDB-1' });
    expect(() => parseClamdReply('stream: something else')).toThrow(ClamdUnavailableError);
  });
});
