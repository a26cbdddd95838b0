import { Readable } from 'node:stream';

import { refusal } from '@medfolio/testing';

import { PICTURE_UPLOAD_MESSAGES, readPictureUpload } from './picture-upload';

const BOUNDARY = 'picture-boundary';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const MB = 1024 * 1024;

interface Part {
  field: string;
  filename?: string;
  data: Buffer | string;
}

function multipart(parts: Part[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename !== undefined ? `; filename="${part.filename}"` : '';
    pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"${file}\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** Streams the body in network-sized pieces. */
function body(data: Buffer, piece = 16 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
  );
}

const picture = (data: Buffer | string): Part => ({ field: 'picture', filename: 'me.png', data });

describe('readPictureUpload', () => {
  it('answers the bytes of the one picture, ignoring text fields', async () => {
    const image = Buffer.alloc(300_000, 0x5a);
    const data = multipart([{ field: 'note', data: 'hello' }, picture(image)]);

    await expect(readPictureUpload(body(data), CONTENT_TYPE, MB)).resolves.toEqual(image);
  });

  it('refuses 1,000 picture parts with 400 and a clear message, not taking the first', async () => {
    const data = multipart(Array.from({ length: 1000 }, (_, i) => picture(`picture ${i}`)));

    const error = await refusal(readPictureUpload(body(data), CONTENT_TYPE, MB));

    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: PICTURE_UPLOAD_MESSAGES.onlyOne });
  });

  it('refuses a second file in another field too', async () => {
    const data = multipart([picture('one'), { field: 'other', filename: 'x.png', data: 'two' }]);

    const error = await refusal(readPictureUpload(body(data), CONTENT_TYPE, MB));

    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: PICTURE_UPLOAD_MESSAGES.onlyOne });
  });

  it.each([
    ['no file at all', [{ field: 'note', data: 'text only' }], PICTURE_UPLOAD_MESSAGES.noPicture],
    ['a file in another field', [{ field: 'files', filename: 'a.png', data: 'x' }], PICTURE_UPLOAD_MESSAGES.wrongField],
  ])('refuses %s', async (_name, parts: Part[], message) => {
    const error = await refusal(readPictureUpload(body(multipart(parts)), CONTENT_TYPE, MB));

    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('refuses a body that is not multipart, naming the field', async () => {
    const error = await refusal(readPictureUpload(body(Buffer.from('x')), 'image/png', MB));

    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: PICTURE_UPLOAD_MESSAGES.notMultipart });
  });

  it('stops at the size limit with PAYLOAD_TOO_LARGE', async () => {
    const data = multipart([picture(Buffer.alloc(MB + 1))]);

    const error = await refusal(readPictureUpload(body(data), CONTENT_TYPE, MB));

    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The picture is too large (at most 1 MB).' });
  });
});
