import { request, type IncomingMessage } from 'node:http';
import { request as requestTls } from 'node:https';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { callerHeaders, INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { GatewayConfig } from '../config';
import type { ForwardedReply } from './internal-upload.repository';

/** The service's answer is small JSON; more than this is not an answer. */
const MAX_REPLY_BYTES = 1024 * 1024;
/**
 * After an early refusal, the rest of the browser's body is read and dropped before answering: a
 * Node server stops reading a request once its response is sent, and a client that cannot finish
 * sending often loses the answer to the connection reset that follows (a browser then shows a
 * network error instead of the message). Only past these limits (more than the largest upload a
 * request may carry, or this long) does the answer go at once, with the connection closed after it.
 * Mutable for tests.
 */
export const UPLOAD_DRAIN_LIMITS = { bytes: 2560 * 1024 * 1024, ms: 10 * 60_000 };

export interface UploadReply extends ForwardedReply {
  /** Answer with Connection: close (the browser's body was not read to its end). */
  closeConnection: boolean;
}
/** An upload that moves no byte for this long (either way) is abandoned. */
const IDLE_TIMEOUT_MS = 120_000;

/**
 * Streams the browser's multipart body, as it arrives, to the documents service's internal endpoint
 * (POST /internal/documents), which parses, checks and stores it: the gateway holds one chunk at a
 * time, never writes to disk, and file bytes never go over NATS. The request goes with the caller's
 * identity and the shared internal token. If the service answers before the body is through (a
 * refused file), forwarding stops at once and the rest of the browser's body is read and dropped
 * before the answer goes back (see UPLOAD_DRAIN_LIMITS). If the browser goes away, the internal
 * request is cut too, and the service discards whatever it had stored.
 */
@Injectable()
export class DocumentUploadRepository {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  forward(caller: CallerIdentity, body: IncomingMessage): Promise<UploadReply> {
    const token = this.config.internalApiToken;
    if (!token)
      return Promise.reject(
        new DomainError('UNAVAILABLE', 'Uploads are not configured (INTERNAL_API_TOKEN is not set).'),
      );
    const target = new URL('/internal/documents', this.config.documentsInternalUrl);
    const length = body.headers['content-length'];
    return new Promise<UploadReply>((resolve, reject) => {
      let settled = false;
      const send = target.protocol === 'https:' ? requestTls : request;
      const upstream = send(target, {
        method: 'POST',
        headers: {
          'content-type': body.headers['content-type'] ?? '',
          ...(length ? { 'content-length': length } : {}),
          [INTERNAL_TOKEN_HEADER]: token,
          ...callerHeaders(caller),
        },
      });
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
      upstream.setTimeout(IDLE_TIMEOUT_MS, () =>
        fail(new DomainError('UPSTREAM_TIMEOUT', 'The upload stalled; please try again.')),
      );
      upstream.on('error', () =>
        fail(new DomainError('UNAVAILABLE', 'The upload could not be completed; please try again shortly.')),
      );
      upstream.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
        });
        response.on('error', () =>
          fail(new DomainError('UNAVAILABLE', 'The upload could not be completed; please try again shortly.')),
        );
        response.on('end', () => {
          if (settled) return;
          settled = true;
          const reply = { status: response.statusCode ?? 502, body: parseReply(Buffer.concat(chunks)) };
          void stopForwarding().then((complete) => resolve({ ...reply, closeConnection: !complete }));
        });
      });
      // The browser went away before its body was through: the service must see the upload break off.
      body.on('close', () => {
        if (!body.readableEnded && !settled)
          fail(new DomainError('VALIDATION_FAILED', 'The upload was interrupted before it was complete.'));
      });
      body.pipe(upstream);
    });
  }
}

function parseReply(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString('utf8'));
  } catch {
    return { message: 'Upload failed.', code: 'INTERNAL' };
  }
}
