import type { DocumentListItem } from '@medfolio/contracts';

/**
 * The extensions the picker and the drop zone accept (spec section 5; jpeg is not among them), plus
 * the structured health records portals export: C-CDA .xml and FHIR .json.
 */
export const ACCEPTED_EXTENSIONS = ['pdf', 'jpg', 'png', 'doc', 'zip', 'docx', 'xml', 'json'] as const;
/** The picker's `accept` attribute. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export const INVALID_FILE_MESSAGE = 'Please select only mentioned files.';
export const FILES_REQUIRED_MESSAGE = 'At least one file is required';
export const UPLOAD_SUCCESS_MESSAGE = 'Files uploaded successfully!';
export const LIST_ERROR_MESSAGE = 'Failed to fetch files.';
export const DELETE_ERROR_MESSAGE = 'Something went wrong while deleting the file.';
export const DOWNLOAD_NO_URL_MESSAGE = 'The server did not return a valid download link.';
export const DOWNLOAD_ERROR_MESSAGE = 'Unable to fetch the file download link. Please try again.';
/** The folder every document is shown in. */
export const LOCATION = 'Uploaded Documents';

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isAccepted(name: string): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** A batch is taken whole or not at all: one file of another type refuses the batch. */
export function acceptBatch(files: readonly File[]): { accepted: File[]; valid: boolean } {
  const valid = files.every((file) => isAccepted(file.name));
  return { accepted: valid ? [...files] : [], valid };
}

/** Size in MB = bytes / 1048576, two decimals (spec section 9). */
export function formatMB(bytes: number): string {
  return `${(bytes / 1048576).toFixed(2)} MB`;
}

const EXTENSION_OF_TYPE: Record<DocumentListItem['content_type'], string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/zip': 'zip',
  'application/xml': 'xml',
  'application/fhir+json': 'json',
};

/** The File type column: a dot and the extension ('.pdf'); from the content type when the name has none. */
export function fileTypeLabel(doc: Pick<DocumentListItem, 'filename' | 'content_type'>): string {
  const ext = extensionOf(doc.filename) || EXTENSION_OF_TYPE[doc.content_type] || '';
  return ext ? `.${ext}` : '';
}

export type FileKind = 'image' | 'pdf' | 'word' | 'other';

/** jpg, jpeg and png are images; pdf; doc and docx are Word; anything else is generic. */
export function kindOf(doc: Pick<DocumentListItem, 'filename' | 'content_type'>): FileKind {
  const ext = extensionOf(doc.filename) || EXTENSION_OF_TYPE[doc.content_type] || '';
  if (ext === 'jpg' || ext === 'jpeg' || ext === 'png') return 'image';
  if (ext === 'pdf') return 'pdf';
  if (ext === 'doc' || ext === 'docx') return 'word';
  return 'other';
}

/** The server makes an image's thumbnail a moment after its upload; the list asks again this often meanwhile. */
export const THUMBNAIL_POLL_MS = 2000;
/**
 * For this long after an image's upload; a thumbnail that takes longer comes with the next refresh.
 * Each ask is an audited list, so the window is short: a thumbnail usually takes about a second.
 */
export const THUMBNAIL_WAIT_MS = 30_000;

/** True while an image uploaded less than THUMBNAIL_WAIT_MS ago (either side of this clock) has no thumbnail yet. */
export function awaitingThumbnail(
  documents: readonly Pick<DocumentListItem, 'filename' | 'content_type' | 'url' | 'uploaded_at'>[],
  now = Date.now(),
): boolean {
  return documents.some(
    (doc) => kindOf(doc) === 'image' && !doc.url && Math.abs(now - Date.parse(doc.uploaded_at)) < THUMBNAIL_WAIT_MS,
  );
}

/** Case-insensitive substring match on the file name; an empty query keeps everything. */
export function filterDocuments<T extends { filename: string }>(documents: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...documents];
  return documents.filter((doc) => doc.filename.toLowerCase().includes(needle));
}

/** uploaded_at in the browser's local date format. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString();
}

/**
 * Per-file progress (0 to 100) from the one byte count the browser reports for the whole body. A
 * multipart body holds the files in order, each after a short part header: the bytes sent are
 * scaled from the body's total to the files' total and given to the files in that order.
 */
export function apportionProgress(sizes: readonly number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  const sent = total > 0 ? Math.min(1, Math.max(0, loaded / total)) * sum : 0;
  let before = 0;
  return sizes.map((size) => {
    const start = before;
    before += size;
    if (size === 0) return sent >= start && loaded > 0 ? 100 : 0;
    return Math.round((Math.min(size, Math.max(0, sent - start)) / size) * 100);
  });
}
