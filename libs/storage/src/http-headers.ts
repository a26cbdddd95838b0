import { create as createContentDisposition } from 'content-disposition';

import { BlobStorageError } from './errors';

/**
 * Header values derived from user input (filenames, content types), made safe for HTTP responses.
 * Downloads are always attachments so a browser never renders an uploaded file (e.g. HTML or SVG)
 * inline on our origin.
 */

const MAX_FILENAME_LENGTH = 200;

/**
 * Reduces a user-supplied filename to something safe in a header and on disk: no directory part,
 * no control characters, no quotes or backslashes, no leading dots, bounded length.
 */
export function safeFilename(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f"\\]/g, '_')
    .trim()
    .replace(/^\.+/, '');
  return [...cleaned].slice(0, MAX_FILENAME_LENGTH).join('') || 'download';
}

/**
 * `attachment; filename="<ASCII>"`, plus `filename*=UTF-8''<percent-encoded>` (RFC 6266) when the
 * name is not plain ASCII: old clients read the ASCII `filename`, current ones the exact UTF-8 name.
 * The header syntax is the `content-disposition` package's; the name is made safe first.
 */
export function attachmentContentDisposition(filename: string): string {
  const name = safeFilename(filename);
  return createContentDisposition(name, { type: 'attachment', fallback: name.replace(/[^\x20-\x7e]/g, '_') });
}

/**
 * Content types end up in response headers, so only printable ASCII is accepted
 * (no CR/LF header injection), and at most 255 bytes (the filesystem format's limit).
 */
export function assertValidContentType(contentType: string): void {
  if (!/^[\x20-\x7e]{1,255}$/.test(contentType)) {
    throw new BlobStorageError('Content type must be 1 to 255 printable ASCII characters');
  }
}
