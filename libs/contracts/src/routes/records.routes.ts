import { HistoryQueryDto } from '../audit';
import { DeleteDocumentDto, DOCUMENTS_SUBJECTS } from '../documents';
import { SUBJECTS } from '../subjects';
import { forward, handled, ownRead } from './route';

/** Download links read the whole stored file again first (its SHA-256, up to 100 MB from S3). */
export const DOWNLOAD_LINK_TIMEOUT_MS = 60_000;

const DOCUMENT_ID = { description: 'A document id from GET /api/upload/', format: 'uuid', notFound: 'Document not found.' } as const;

/** The patient's documents and their access history. */
export const RECORD_ROUTES = {
  historyList: forward(SUBJECTS.audit.historyList, {
    onBehalf: 'view',
    method: 'GET', path: '/api/history/', tag: 'history', auth: 'bearer', rateLimit: 'per-client',
    summary: "The signed-in patient's access history: who read or changed their health data, newest first",
    query: HistoryQueryDto,
    queryDocs: {
      page: { description: 'Page number, from 1', type: 'integer' },
      page_size: { description: 'Entries per page, 1 to 100 (default 20)', type: 'integer' },
    },
    reply: { status: 200, shape: 'HistoryPage' },
    errors: {},
  }),
  documentsUpload: handled({
    onBehalf: 'manage',
    method: 'POST', path: '/api/upload/', tag: 'documents', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Upload documents: PDF, JPG, PNG, Word (.doc, .docx), zip or health records (C-CDA .xml, FHIR .json), checked by their content',
    description:
      'Up to 20 files of up to 100 MB each (the server configuration decides), as repeated `files` fields. All or nothing: the first ' +
      'refused file (its type, its content, its size, or the plan quota) ends the request with a message naming it, and nothing of the ' +
      'request is kept.',
    rawBody: {
      type: 'multipart/form-data',
      schema: {
        type: 'object',
        required: ['files'],
        properties: { files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One entry per file' } },
      },
    },
    reply: { status: 201, shape: 'UploadReply' },
    errors: {
      400: 'Not multipart, no file, or files in another field',
      402: 'The plan allows no more documents; the message names a plan that does',
      413: 'A file is larger than allowed, or too many files',
      415: 'A file is not of an accepted type, its content does not match its name, or it carries a virus or malware (the message names the file and the signature)',
      503: 'Nothing was kept: the antivirus scanner (clamd) cannot check files right now, the store is full, or the documents service is down',
    },
  }),
  documentsList: ownRead(DOCUMENTS_SUBJECTS.list, '/api/upload/', 'documents',
    "The signed-in user's documents, newest first", 'DocumentListItem[]', { onBehalf: 'view' }),
  documentsDelete: forward(DOCUMENTS_SUBJECTS.delete, {
    onBehalf: 'manage',
    method: 'DELETE', path: '/api/upload/', tag: 'documents', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Delete one of your documents; it is gone from the list at once (its file is purged right after)',
    body: DeleteDocumentDto,
    reply: { status: 200, shape: 'MessageReply' },
    errors: { 404: 'No such document of yours' },
  }),
  documentsDownloadLink: forward(DOCUMENTS_SUBJECTS.downloadLink, {
    onBehalf: 'view',
    method: 'GET', path: '/api/get-document-download-link/{documentId}/', tag: 'documents', auth: 'bearer', rateLimit: 'per-client',
    summary: 'A 5-minute download link for one of your documents (its SHA-256 is checked first)',
    params: { documentId: DOCUMENT_ID },
    paramNames: { documentId: 'document_id' },
    timeoutMs: DOWNLOAD_LINK_TIMEOUT_MS,
    reply: { status: 200, shape: 'DownloadLinkReply' },
    errors: { 404: 'No such document of yours', 500: 'The stored file failed its integrity check: no link is given' },
  }),
} as const;
