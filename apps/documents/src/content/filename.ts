/** Longest display name kept, in characters (the extension is kept when shortening). */
export const MAX_FILENAME_LENGTH = 200;

/**
 * Characters that must never reach a display name: C0/C1 controls, and the invisible formatting
 * characters that make a name read differently from what it is: bidirectional overrides and
 * isolates ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"), zero-width characters, BOM.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * The name a document is shown and downloaded under, from the name the browser sent: no directory
 * part (either slash), no unsafe characters, no leading dots, no trailing dots or spaces (Windows
 * drops them), whitespace collapsed, at most {@link MAX_FILENAME_LENGTH} characters with the
 * extension kept. Never empty. The storage key never derives from it.
 */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\t\n\r\f\v]/g, ' ')
    .replace(UNSAFE, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  return shorten(cleaned) || 'document';
}

/** The last extension, lower-cased, without the dot ('' when there is none): "scan.PDF" → "pdf". */
export function extensionOf(name: string): string {
  return /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
}

function shorten(name: string): string {
  const characters = [...name];
  if (characters.length <= MAX_FILENAME_LENGTH) return name;
  const extension = extensionOf(name);
  const keep = extension && extension.length < 16 ? `.${[...name].slice(-extension.length).join('')}` : '';
  return `${characters
    .slice(0, MAX_FILENAME_LENGTH - keep.length)
    .join('')
    .trimEnd()}${keep}`;
}
