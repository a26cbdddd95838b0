import type { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { DomainError } from '@medfolio/contracts';
import { STREAM_BUFFER_BYTES } from '../blob-storage';

/** One file of a multipart upload. Its stream must be read (or destroyed) before the next one comes. */
export interface FilePart {
  field: string;
  /** As the browser sent it (directory part removed); not yet made safe for display. */
  filename: string;
  stream: Readable;
}

export interface FilePartsLimits {
  /** Most files; one more refuses the upload (with `tooManyFiles`). */
  files: number;
  /** The refusal of a body that is not multipart; it should name the field the client must use. */
  notMultipart?: string;
  /** The refusal of one file more than `files`; default {@link tooManyFiles}. */
  tooManyFiles?: () => DomainError;
}

export const MULTIPART_MESSAGES = {
  notMultipart: 'Send the files as multipart/form-data.',
  malformed: 'The upload was incomplete or not valid multipart data. Please try again.',
  aborted: 'The upload was interrupted before it was complete.',
} as const;

export function tooManyFiles(max: number): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `Too many files: at most ${max} can be uploaded at once.`);
}

/**
 * The files of a multipart/form-data body, one after the other, as streams: nothing is buffered
 * beyond what the parser (@fastify/busboy) holds for the part being read, and the body is only read
 * as fast as the current file is consumed. Text fields are read (at most a few, 1 KiB each) and
 * ignored. Throws DomainError VALIDATION_FAILED for malformed data, PAYLOAD_TOO_LARGE past the file
 * limit. If the body breaks off, the file being read errors and so does the iteration.
 */
export async function* fileParts(
  body: Readable,
  contentType: string | undefined,
  limits: FilePartsLimits,
): AsyncGenerator<FilePart> {
  const notMultipart = () => new DomainError('VALIDATION_FAILED', limits.notMultipart ?? MULTIPART_MESSAGES.notMultipart);
  const tooMany = limits.tooManyFiles ?? (() => tooManyFiles(limits.files));
  if (!contentType || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) throw notMultipart();
  let parser;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      // Each file's stream may hold this much before the parser stops reading the body.
      fileHwm: STREAM_BUFFER_BYTES,
      limits: { files: limits.files, fields: 20, parts: limits.files + 20, fieldSize: 1024, headerPairs: 20 },
    });
  } catch {
    throw notMultipart();
  }
  const queue: FilePart[] = [];
  let finished = false;
  let failure: Error | undefined;
  let current: BusboyFileStream | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    notify();
  };

  parser.on('file', (field, stream, filename) => {
    current = stream;
    // The parser reports a part cut short on the file's stream: never let that be an unhandled
    // 'error' (which would end the process) if nobody happens to be reading it at that moment.
    stream.on('error', () => fail(new DomainError('VALIDATION_FAILED', MULTIPART_MESSAGES.malformed)));
    queue.push({ field, filename: filename ?? '', stream });
    notify();
  });
  parser.on('field', () => undefined);
  parser.on('filesLimit', () => fail(tooMany()));
  parser.on('partsLimit', () => fail(tooMany()));
  parser.on('fieldsLimit', () => fail(new DomainError('VALIDATION_FAILED', MULTIPART_MESSAGES.malformed)));
  parser.on('error', () => fail(new DomainError('VALIDATION_FAILED', MULTIPART_MESSAGES.malformed)));
  parser.on('finish', () => {
    finished = true;
    notify();
  });
  const onBroken = () => {
    const error = new DomainError('VALIDATION_FAILED', MULTIPART_MESSAGES.aborted);
    if (current && !current.readableEnded) current.destroy(error);
    fail(error);
  };
  const onClose = () => {
    if (!body.readableEnded) onBroken();
  };
  body.on('error', onBroken);
  body.on('aborted', onBroken);
  body.on('close', onClose);
  body.pipe(parser);

  try {
    for (;;) {
      if (failure) throw failure;
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    body.off('error', onBroken);
    body.off('aborted', onBroken);
    body.off('close', onClose);
    body.unpipe(parser);
    // A file the consumer never read would hold the parser (and the body) forever.
    for (const part of queue) part.stream.resume();
  }
}
