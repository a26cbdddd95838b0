import { DOCUMENT_CONTENT_TYPES, DomainError, type DocumentKind } from '@medfolio/contracts';

/**
 * The extensions a document may be named with (spec section 9, plus .jpeg, plus the structured
 * records: C-CDA .xml and FHIR .json) and the kind each promises.
 */
export const KIND_BY_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  doc: 'doc',
  docx: 'docx',
  zip: 'zip',
  xml: 'xml',
  json: 'json',
};

/**
 * The kinds a zip file may contain (not another zip: nested archives are not checked), and the
 * companions a portal's "Download my record" zip holds beside its C-CDA: a stylesheet to view it,
 * a readme page, a text file. They are kept inside the archive, never served on their own, and the
 * summary skips them.
 */
export const INNER_ZIP_EXTENSIONS: ReadonlySet<string> = new Set([
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'doc',
  'docx',
  'xml',
  'json',
  'xsl',
  'xslt',
  'html',
  'htm',
  'css',
  'txt',
]);

/** How a kind is named in messages: '"x.pdf" is not <a PDF>'. */
export const KIND_NAMES: Readonly<Record<DocumentKind, string>> = {
  pdf: 'a PDF',
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  doc: 'a Word document (.doc)',
  docx: 'a Word document (.docx)',
  zip: 'a zip file',
  xml: 'a health record',
  json: 'a health record',
};

export const ACCEPTED_TYPES_SENTENCE =
  'Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.';

export function contentTypeOf(kind: DocumentKind): string {
  return DOCUMENT_CONTENT_TYPES[kind];
}

/** A file's name in a message: quoted, and short. */
export function quoted(name: string): string {
  const characters = [...name];
  return `"${characters.length > 80 ? `${characters.slice(0, 77).join('')}...` : name}"`;
}

/** Why a file was refused, naming it; the HTTP status follows the code (415 for content). */
export function refused(filename: string, reason: string): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', `${quoted(filename)} ${reason}`);
}
