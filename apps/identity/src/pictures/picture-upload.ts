import type { Readable } from 'node:stream';

import { DomainError } from '@medfolio/contracts';
import { fileParts } from '@medfolio/storage';

import { readAtMost } from './read-bounded';

export const PICTURE_UPLOAD_MESSAGES = {
  notMultipart: 'Send the picture as multipart/form-data in the field "picture".',
  noPicture: 'Please choose a picture to upload.',
  wrongField: 'Send the picture in the multipart field "picture".',
  onlyOne: 'Send one picture only: the upload had more than one file.',
} as const;

/**
 * The one picture of a multipart upload (a file in the field `picture`), read into memory, at most
 * `maxBytes` (more: PAYLOAD_TOO_LARGE). The whole body is parsed before the picture is returned, so
 * an upload with a second file part (in any field) is refused with VALIDATION_FAILED before
 * anything is decoded or stored. Text fields are ignored.
 */
export async function readPictureUpload(body: Readable, contentType: string | undefined, maxBytes: number): Promise<Buffer> {
  let picture: Buffer | undefined;
  const parts = fileParts(body, contentType, {
    files: 1,
    notMultipart: PICTURE_UPLOAD_MESSAGES.notMultipart,
    tooManyFiles: () => new DomainError('VALIDATION_FAILED', PICTURE_UPLOAD_MESSAGES.onlyOne),
  });
  for await (const part of parts) {
    if (part.field !== 'picture') throw new DomainError('VALIDATION_FAILED', PICTURE_UPLOAD_MESSAGES.wrongField);
    picture = await readAtMost(part.stream, maxBytes);
  }
  if (picture === undefined) throw new DomainError('VALIDATION_FAILED', PICTURE_UPLOAD_MESSAGES.noPicture);
  return picture;
}
