import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as requestTls } from 'node:https';
import { DomainError } from '@medfolio/contracts';
import { STREAM_BUFFER_BYTES } from '../blob-storage';

/** The owning service's answer is small JSON; more than this is not an answer. */
const MAX_REPLY_BYTES = 1024 * 1024;
/** An upload that moves no byte for this long (either way) is abandoned. */
const IDLE_TIMEOUT_MS = 120_000;
/**
 * After an early refusal, the rest of the browser's body is read and dropped before answering: a
 * Node server stops reading a request once its response is sent, and a client that cannot finish
 * sending often loses the answer to the connection reset that follows (a browser then shows a
 * network error instead of the message). Only past these limits (more than the largest upload a
 * request may carry, or this long) does the answer go at once, with the connection closed after it.
 * Mutable for tests.
 */
export const UPLOAD_DRAIN_LIMITS = { bytes: 2560 * 1024 * 1024, ms: 10 * 60_000 };

export const FORWARD_MESSAGES = {
  unavailable: 'The upload could not be completed; please try again shortly.',
  stalled: 'The upload stalled; please try again.',
  interrupted: 'The upload was interrupted before it was complete.',
} as const;

export interface ForwardedUpload {
  /** The owning service's status and JSON answer, to pass on as they are. */
  status: number;
  body: unknown;
  /** Answer with Connection: close (the browser's body was not read to its end). */
  closeConnection: boolean;
}

/**
 * Streams a browser's upload body (multipart, as it arrives) to the internal HTTP endpoint of the
 * service that owns the files, which parses, checks and stores it (with {@link fileParts}). The
 * forwarding side holds one chunk at a time, never writes to disk, and file bytes never go over
 * NATS. `headers` carry the internal token and the caller; the body's Content-Type (with its
 * boundary) and Content-Length go along.
 *
 * If the service answers before the body is through (a refused file), forwarding stops at once and
 * the rest of the browser's body is read and dropped before the answer goes back (see
 * UPLOAD_DRAIN_LIMITS). If the browser goes away, the internal request is cut too, and the service
 * discards whatever it had stored. Fails with DomainError UNAVAILABLE (service unreachable),
 * UPSTREAM_TIMEOUT (stalled) or VALIDATION_FAILED (browser went away).
 */
export function forwardUpload(body: IncomingMessage, target: URL, headers: Record<string, string>): Promise<ForwardedUpload> {
  const length = body.headers['content-length'];
  return new Promise<ForwardedUpload>((resolve, reject) => {
    let settled = false;
    const send = target.protocol === 'https:' ? requestTls : request;
    // highWaterMark (the socket's; Node's http takes it, its types do not list it): room for the
    // chunks of one turn of the event loop (see the cork below) before `pipe` pauses the browser's body.
    const options: RequestOptions & { highWaterMark: number } = {
      method: 'POST',
      highWaterMark: STREAM_BUFFER_BYTES,
      headers: {
        'content-type': body.headers['content-type'] ?? '',
        ...(length ? { 'content-length': length } : {}),
        ...headers,
      },
    };
    const upstream = send(target, options);
    const fail = (error: DomainError) => {
      if (settled) return;
      settled = true;
      upstream.destroy();
      reject(error);
    };
    /** Stops sending to the service; resolves once the rest of the browser's body is read (true) or given up on (false). */
    const stopForwarding = (): Promise<boolean> => {
      if (body.readableEnded) return Promise.resolve(true);
      body.unpipe(upstream);
      upstream.destroy();
      return new Promise<boolean>((done) => {
        let drained = 0;
        const timer = setTimeout(() => finish(false), UPLOAD_DRAIN_LIMITS.ms);
        const onData = (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > UPLOAD_DRAIN_LIMITS.bytes) finish(false);
        };
        const finish = (complete: boolean) => {
          clearTimeout(timer);
          body.off('data', onData);
          body.off('end', onEnd);
          body.off('close', onClose);
          if (!complete) body.pause();
          done(complete);
        };
        const onEnd = () => finish(true);
        const onClose = () => finish(body.readableEnded);
        body.on('data', onData);
        body.once('end', onEnd);
        body.once('close', onClose);
        body.resume();
      });
    };
    upstream.setTimeout(IDLE_TIMEOUT_MS, () => fail(new DomainError('UPSTREAM_TIMEOUT', FORWARD_MESSAGES.stalled)));
    upstream.on('error', () => fail(new DomainError('UNAVAILABLE', FORWARD_MESSAGES.unavailable)));
    upstream.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      });
      response.on('error', () => fail(new DomainError('UNAVAILABLE', FORWARD_MESSAGES.unavailable)));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        const reply = { status: response.statusCode ?? 502, body: parseReply(Buffer.concat(chunks)) };
        void stopForwarding().then((complete) => resolve({ ...reply, closeConnection: !complete }));
      });
    });
    // The browser went away before its body was through: the service must see the upload break off.
    body.on('close', () => {
      if (!body.readableEnded && !settled) fail(new DomainError('VALIDATION_FAILED', FORWARD_MESSAGES.interrupted));
    });
    // The browser's body arrives 64 KiB per socket read, several reads per turn of the event loop:
    // corked until the turn ends, they go on to the service in one writev instead of one write each.
    let corked = false;
    body.on('data', () => {
      if (corked || settled || !upstream.socket) return;
      corked = true;
      upstream.cork();
      setImmediate(() => {
        corked = false;
        upstream.uncork();
      });
    });
    body.pipe(upstream);
  });
}

/**
 * For the service's internal upload route: after a refusal before the end of the body, read and
 * discard the rest, so the client gets the answer rather than a reset connection (the forwarding
 * side stops sending as soon as it has the answer).
 */
export function discardRestOfBody(body: { resume?: () => unknown } | undefined): void {
  if (typeof body?.resume === 'function') body.resume();
}

function parseReply(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString('utf8'));
  } catch {
    return { message: 'Upload failed.', code: 'INTERNAL' };
  }
}
