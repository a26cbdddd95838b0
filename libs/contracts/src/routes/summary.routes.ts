import { SHARE_FORMAT_SUBJECTS, ShlFileDto, ShlLinkDto, ShlManifestBodyDto, SummaryPdfQueryDto } from '../share-formats';
import { CreateShareLinkDto, SHARING_SUBJECTS, UnlockShareLinkDto, UpdateShareLinkBodyDto } from '../sharing';
import { AddFactDto, ConfirmSummaryDto, EditFactBodyDto, HideFactBodyDto, SUMMARY_SUBJECTS, SummaryQueryDto } from '../summary';
import { forward, handled, ownRead, type QueryParam } from './route';

/** Every answer of the share reads: never cached or indexed, never a referrer to the link. */
export const SHARE_READ_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' } as const;

const FACT_ID = { description: 'A fact id from the summary' } as const;
const LINK_ID = { description: 'A share link id from GET /api/share-links/' } as const;
const USER: QueryParam = { description: "A share id (anyone holding the link), or the signed-in owner's own user id", required: true, example: 'kq3C1uXW0pDq3b0F7nHqXg' };
const VIEW_TOKEN: QueryParam = { description: "A passcode link's view token (POST /api/summary/unlock/)" };
const SHARE_ERRORS = { 401: 'An access token was sent and is not valid', 403: 'This link needs a passcode.', 404: 'This link is not valid.' } as const;
const NEW_VERSION = 'The summary, as a new version';

/** The summary, the patient's review of it, and sharing it (links, FHIR, PDF, SMART Health Links). */
export const SUMMARY_ROUTES = {
  summaryGet: forward(SUMMARY_SUBJECTS.get, {
    onBehalf: 'view',
    method: 'GET', path: '/api/summary/', tag: 'summary', auth: 'bearer-if-sent', rateLimit: 'per-client',
    summary: "A patient's summary: the owner's own, or the one a share link shares",
    description:
      "`user` is the owner's own id (signed in: their latest summary, with documents and review state) or a share id (anyone, " +
      'signed in or not: the latest CONFIRMED version, without documents, sources or review state, and `shared` set). A revoked, ' +
      'expired, locked, wrong or guessed id answers 404 "This link is not valid."; a passcode link answers 403 until `view_token` ' +
      '(POST /api/summary/unlock/) is sent. A list with one item (the seed shape).',
    query: SummaryQueryDto,
    queryDocs: { user: USER, view_token: VIEW_TOKEN },
    reply: { status: 200, shape: 'SummaryItem[]', headers: SHARE_READ_HEADERS },
    errors: SHARE_ERRORS,
  }),
  summaryStatus: forward(SUMMARY_SUBJECTS.status, {
    onBehalf: 'view',
    method: 'GET', path: '/api/summary/status/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: "Where the caller's own summary stands, without its content",
    description:
      'Status, latest and confirmed version, and the documents the summary knows of with how far each was read: no health data. ' +
      'The dashboard polls it every 2 s while a build is pending (a document being read, or one just uploaded that the summary has not heard of yet).',
    reply: { status: 200, shape: 'SummaryStatusReply' },
    errors: {},
  }),
  summaryUnlock: forward(SHARING_SUBJECTS.unlock, {
    method: 'POST', path: '/api/summary/unlock/', tag: 'summary', auth: 'public', rateLimit: 'per-client',
    summary: 'Open a passcode link: the passcode for a short-lived view token',
    description: 'A wrong passcode answers 401 with the attempts left (`details.remaining_attempts`); after 5 the link locks and answers 404 until its owner sets a new passcode.',
    body: UnlockShareLinkDto,
    reply: { status: 200, shape: 'ShareLinkUnlockReply' },
    errors: { 401: 'Wrong passcode. n attempts left.', 404: 'This link is not valid.' },
  }),
  summaryHide: forward(SUMMARY_SUBJECTS.hide, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/summary/facts/{factId}/hide/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Hide a fact (or show it again): the owner still sees it, marked; the text and shares leave it out',
    params: { factId: FACT_ID },
    paramNames: { factId: 'fact_id' },
    body: HideFactBodyDto,
    reply: { status: 200, shape: 'SummaryItem', description: NEW_VERSION },
    errors: { 404: 'Fact not found.' },
  }),
  summaryEdit: forward(SUMMARY_SUBJECTS.edit, {
    onBehalf: 'manage',
    method: 'PUT', path: '/api/summary/facts/{factId}/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: "Correct a fact's text (the original is kept; the correction survives rebuilds)",
    params: { factId: FACT_ID },
    paramNames: { factId: 'fact_id' },
    body: EditFactBodyDto,
    reply: { status: 200, shape: 'SummaryItem', description: NEW_VERSION },
    errors: { 400: 'text must be 1 to 300 characters', 404: 'Fact not found.' },
  }),
  summaryAdd: forward(SUMMARY_SUBJECTS.add, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/summary/facts/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Add a fact to a section (marked added by the patient, with no sources)',
    body: AddFactDto,
    reply: { status: 200, shape: 'SummaryItem', description: NEW_VERSION },
    errors: { 400: 'Unknown section, or text not 1 to 300 characters' },
  }),
  summaryRemove: forward(SUMMARY_SUBJECTS.remove, {
    onBehalf: 'manage',
    method: 'DELETE', path: '/api/summary/facts/{factId}/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Remove a fact the patient added (others can only be hidden)',
    params: { factId: FACT_ID },
    paramNames: { factId: 'fact_id' },
    reply: { status: 200, shape: 'SummaryItem', description: NEW_VERSION },
    errors: { 400: 'Not a fact the patient added', 404: 'Fact not found.' },
  }),
  summaryConfirm: forward(SUMMARY_SUBJECTS.confirm, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/summary/confirm/', tag: 'summary', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Confirm the latest version as reviewed (the version kept for sharing)',
    body: ConfirmSummaryDto,
    reply: { status: 200, shape: 'SummaryItem', description: 'The summary, with confirmed_version set' },
    errors: { 409: 'The summary changed; review the new version.' },
  }),
  shareLinksList: ownRead(SHARING_SUBJECTS.list, '/api/share-links/', 'sharing',
    "The signed-in patient's share links, newest first (revoked ones too), with view counts", 'ShareLinkItem[]', { onBehalf: 'view' }),
  shareLinksDefault: forward(SHARING_SUBJECTS.ensure, {
    onBehalf: 'manage',
    method: 'GET', path: '/api/share-links/default/', tag: 'sharing', auth: 'bearer', rateLimit: 'per-client',
    summary: "The default link (the dashboard's QR code), made when first asked for",
    description: "A new default link expires 30 days after it is made (PATCH changes that). Loading the dashboard never calls this: View Summary is the owner's own page, /summary/{userId}.",
    fixed: { purpose: 'default' },
    reply: { status: 200, shape: 'ShareLinkItem' },
    errors: {},
  }),
  shareLinksCreate: forward(SHARING_SUBJECTS.create, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/share-links/', tag: 'sharing', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Make a share link: a label, and optionally an expiry, a passcode, an e-mail on view',
    body: CreateShareLinkDto,
    reply: { status: 201, shape: 'ShareLinkItem' },
    errors: { 400: 'A field is not valid (label 1 to 60 characters, passcode 4 to 64, expiry in the future)', 409: 'Too many live links' },
  }),
  shareLinksUpdate: forward(SHARING_SUBJECTS.update, {
    onBehalf: 'manage',
    method: 'PATCH', path: '/api/share-links/{linkId}/', tag: 'sharing', auth: 'bearer', rateLimit: 'per-client',
    summary: "Change a link's label, expiry, passcode, e-mail on view or providers flag (only the fields sent)",
    params: { linkId: LINK_ID },
    paramNames: { linkId: 'link_id' },
    body: UpdateShareLinkBodyDto,
    reply: { status: 200, shape: 'ShareLinkItem' },
    errors: { 400: 'A field is not valid', 404: 'Share link not found', 409: 'The link was revoked' },
  }),
  shareLinksRevoke: forward(SHARING_SUBJECTS.revoke, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/share-links/{linkId}/revoke/', tag: 'sharing', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Revoke a link at once: it answers "This link is not valid." from then on',
    params: { linkId: LINK_ID },
    paramNames: { linkId: 'link_id' },
    reply: { status: 200, shape: 'ShareLinkItem' },
    errors: { 404: 'Share link not found' },
  }),
  shareFormatsFhir: forward(SHARE_FORMAT_SUBJECTS.fhir, {
    onBehalf: 'view',
    method: 'GET', path: '/api/summary/fhir/', tag: 'summary', auth: 'bearer-if-sent', rateLimit: 'per-client',
    summary: 'The summary as a FHIR R4 International Patient Summary (IPS) document Bundle',
    description:
      'Bundle type document; Composition LOINC 60591-5 with the Problems (11450-4), Medications (10160-0) and Allergies (48765-2) sections always, ' +
      'and past illness, immunizations, procedures, results and vital signs when present. Codes (SNOMED CT, RxNorm, LOINC, CVX...) where the records gave them, text always. ' +
      'Through a share link: the confirmed version, without hidden facts or the patient id.',
    query: SummaryQueryDto,
    queryDocs: { user: USER, view_token: VIEW_TOKEN },
    reply: { status: 200, shape: 'FhirBundle', media: { type: 'application/fhir+json', schema: 'json' }, headers: SHARE_READ_HEADERS },
    errors: SHARE_ERRORS,
  }),
  shareFormatsPdf: handled({
    onBehalf: 'view',
    method: 'GET', path: '/api/summary/pdf/', tag: 'summary', auth: 'bearer-if-sent', rateLimit: 'per-client',
    summary: 'The summary as a printable PDF (A4 or Letter), with the link QR code and expiry',
    description: "One page where it fits. Through a share link the QR is that link's; for the owner, their default link's.",
    query: SummaryPdfQueryDto,
    queryDocs: { user: USER, size: { description: 'Paper size: a4 (default) or letter' }, view_token: VIEW_TOKEN },
    reply: { status: 200, media: { type: 'application/pdf', schema: 'binary' }, headers: SHARE_READ_HEADERS },
    errors: { 400: 'size must be a4 or letter.', ...SHARE_ERRORS },
  }),
  shareFormatsManifest: handled({
    method: 'POST', path: '/api/summary/shl/', tag: 'summary', auth: 'public', rateLimit: 'per-client',
    summary: "A SMART Health Link's manifest (the SHL payload's url)",
    description:
      'The HL7 SMART Health Links manifest request: `recipient`, and `passcode` when the payload has flag P. Answers the manifest with one file, ' +
      'the IPS Bundle as a compact JWE (alg dir, enc A256GCM, cty application/fhir+json) embedded, or at a location valid for an hour when it is longer than ' +
      '`embeddedLengthMax`. A wrong passcode answers 401 with `remainingAttempts`; at the limit the link locks. Revoked, expired, locked or unknown links answer 404. ' +
      'Any origin may call it (CORS), without cookies.',
    query: ShlLinkDto,
    queryDocs: { user: { description: 'The share id', required: true }, tag: { description: "The tag binding the URL to the link's SHL key", required: true } },
    body: ShlManifestBodyDto,
    reply: { status: 200, shape: 'ShlManifestReply', headers: SHARE_READ_HEADERS },
    errors: { 400: 'recipient is required, or a field is not valid', 401: { description: 'Wrong or missing passcode, with the attempts left', shape: 'ShlRemainingAttemptsReply' }, 404: 'This link is not valid.' },
  }),
  shareFormatsFile: handled({
    method: 'GET', path: '/api/summary/shl/file/', tag: 'summary', auth: 'public', rateLimit: 'per-client',
    summary: 'A SMART Health Link file location: the IPS Bundle as a compact JWE (application/jose), valid an hour after the manifest gave it',
    query: ShlFileDto,
    queryDocs: { user: { description: 'The share id', required: true }, tag: { description: "The link's SHL tag", required: true }, token: { description: 'The location token the manifest gave', required: true } },
    reply: { status: 200, media: { type: 'application/jose' }, headers: SHARE_READ_HEADERS },
    errors: { 400: 'A query parameter is missing or not valid', 404: 'This link is not valid.' },
  }),
} as const;
