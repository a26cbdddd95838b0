import { IsIn, IsInt, IsISO8601, IsUUID, Matches, Min } from 'class-validator';
import { NonEmptyString } from './rules';

/**
 * The documents calls (spec section 7) and events. File bytes never travel over NATS: uploads
 * stream from the gateway to the documents service's internal HTTP endpoint
 * (POST /internal/documents, multipart passed through as it came); only the calls below do.
 */
export const DOCUMENTS_SUBJECTS = {
  /** Request/reply: the caller's documents, newest first. Payload {}, reply DocumentListItem[]. */
  list: 'documents.document.list',
  /** Request/reply: DeleteDocumentDto, reply MessageReply. The blob is purged afterwards by an event handler. */
  delete: 'documents.document.delete',
  /** Request/reply: DocumentIdDto, reply DownloadLinkReply (the SHA-256 is checked first). */
  downloadLink: 'documents.document.download-link',
  /** Event (DOCUMENTS stream): DocumentUploadedEvent. */
  uploaded: 'documents.document.uploaded.v1',
  /** Event (DOCUMENTS stream): DocumentDeletedEvent. */
  deleted: 'documents.document.deleted.v1',
} as const;

const NOT_A_DOCUMENT_ID = 'document_id must be the id of one of your documents.';

/** DELETE /api/upload/ body. */
export class DeleteDocumentDto {
  @IsUUID('all', { message: NOT_A_DOCUMENT_ID })
  document_id!: string;
}

/** GET /api/get-document-download-link/{documentId}/. */
export class DocumentIdDto {
  @IsUUID('all', { message: NOT_A_DOCUMENT_ID })
  document_id!: string;
}

/** The document types accepted, as decided from the content (never the name or the declared type). */
export const DOCUMENT_KINDS = ['pdf', 'jpeg', 'png', 'doc', 'docx', 'zip', 'xml', 'json'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * The Content-Type each kind is stored and served with. xml is a C-CDA record and json a FHIR
 * resource; like every document they are only ever served as attachments with nosniff (a C-CDA's
 * `<?xml-stylesheet?>` would otherwise run XSLT in the browser).
 */
export const DOCUMENT_CONTENT_TYPES: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  zip: 'application/zip',
  xml: 'application/xml',
  json: 'application/fhir+json',
};

/** One entry of GET /api/upload/. */
export interface DocumentListItem {
  id: string;
  /** The name it was uploaded with, made safe for display (no directories, control or bidi characters). */
  filename: string;
  /** A short-lived URL of a thumbnail (WebP) for jpg and png documents once it is made; otherwise null. */
  url: string | null;
  /** ISO 8601. */
  uploaded_at: string;
  /** Bytes. */
  size: number;
  content_type: string;
  /**
   * The owner hid it from the people with proxy access to the record (PATCH /api/documents/{id}/):
   * they do not see it listed, cannot download it, and the summary they read leaves out what only
   * it says. Only the owner's own reads list private documents.
   */
  private?: boolean;
}

/** POST /api/upload/ (spec: the client reads image_urls, image_url and message). */
export interface UploadReply {
  message: string;
  /** One short-lived download link per stored document, in upload order. */
  image_urls: string[];
  /** The first of image_urls (the spec's single-file field). */
  image_url: string | null;
  /** The stored documents, as GET /api/upload/ lists them. */
  documents: DocumentListItem[];
}

export interface DownloadLinkReply {
  /** Valid for 5 minutes; answers with Content-Disposition: attachment. */
  download_url: string;
  filename: string;
  /** ISO 8601. */
  expires_at: string;
}

/**
 * documents.document.uploaded.v1. No filename: events are kept in a stream, and a filename is
 * health data ("hiv-test-result.pdf"); a consumer that needs it asks the documents service.
 */
export class DocumentUploadedEvent {
  @IsUUID('all', { message: 'document_id must be a document id' })
  document_id!: string;

  @NonEmptyString(128)
  owner_id!: string;

  @IsIn(DOCUMENT_KINDS, { message: `kind must be one of: ${DOCUMENT_KINDS.join(', ')}` })
  kind!: DocumentKind;

  @NonEmptyString(255)
  content_type!: string;

  @IsInt()
  @Min(0)
  size!: number;

  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lowercase hex digits' })
  sha256!: string;

  @NonEmptyString(1024)
  storage_key!: string;

  /** ISO 8601. */
  @IsISO8601({ strict: true }, { message: 'uploaded_at must be an ISO 8601 date and time' })
  uploaded_at!: string;
}

/** documents.document.deleted.v1: the document is gone for its owner; its blobs are being purged. */
export class DocumentDeletedEvent {
  @IsUUID('all', { message: 'document_id must be a document id' })
  document_id!: string;

  @NonEmptyString(128)
  owner_id!: string;

  @NonEmptyString(1024)
  storage_key!: string;

  /** ISO 8601. */
  @IsISO8601({ strict: true }, { message: 'deleted_at must be an ISO 8601 date and time' })
  deleted_at!: string;
}
