import { DecideRequestBodyDto, PROVIDER_MESSAGES, PROVIDERS_SUBJECTS, RequestAccessDto, VerifyLicenseDto } from '../providers';
import { DOWNLOAD_LINK_TIMEOUT_MS } from './records.routes';
import { forward, ownRead } from './route';

const PATIENT_ID = { description: 'A patient id from GET /api/providers/patients/', format: 'uuid', notFound: PROVIDER_MESSAGES.patientNotFound } as const;
const NOT_GRANTED = "No active grant from this patient (never granted, declined, revoked, expired, or not a verified provider): the same 404 as for any other user's data";
const PROVIDER_LIMIT = 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)';

/** Licence verification, and the provider API: access requests, grants, patients' summaries and documents. */
export const PROVIDER_ROUTES = {
  medicalLicenseVerify: forward(PROVIDERS_SUBJECTS.verifyLicense, {
    method: 'POST', path: '/api/medical-license/', tag: 'providers', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Verify a medical license against the NPPES NPI Registry; success gives the account the provider role (self-attested until an operator verifies it)',
    description:
      "The number's check digit is checked before the registry is asked; the registry's name must match the account's. A match is a self-attested claim: " +
      'the provider may ask for access but is never pre-approved until an operator verifies it.',
    body: VerifyLicenseDto,
    reply: { status: 200, shape: 'VerifyLicenseReply' },
    errors: {
      400: "An organisation's NPI, or the registry's name does not match the account's",
      403: 'Your claim on this number was rejected after review',
      404: "'Medical License Number Not Found, Please Try Again' (unknown number, or a wrong check digit)",
      409: 'Another account claims the number: if it is yours, dispute it (POST /api/medical-license/dispute/)',
      429: 'Too many attempts (Retry-After)',
      503: "'We cannot verify licenses right now. Please try again later.' (the registry is down, slow or failing)",
    },
  }),
  medicalLicenseDispute: forward(PROVIDERS_SUBJECTS.disputeLicense, {
    method: 'POST', path: '/api/medical-license/dispute/', tag: 'providers', auth: 'bearer', rateLimit: 'per-client',
    summary: "Dispute another account's claim on your NPI",
    description: 'The registry must name you; the claim cannot be approved while the dispute is open, and an operator decides it.',
    body: VerifyLicenseDto,
    reply: { status: 201, shape: 'DisputeLicenseReply' },
    errors: {
      400: "An organisation's NPI, the registry's name does not match the account's, or no other account claims the number",
      404: "'Medical License Number Not Found, Please Try Again'",
      429: 'Too many attempts (Retry-After)',
      503: 'The registry cannot be asked right now',
    },
  }),
  medicalLicenseGet: ownRead(PROVIDERS_SUBJECTS.getProvider, '/api/medical-license/', 'providers',
    "The signed-in provider's facts, with their verification level ('self_attested' or 'verified')", 'ProviderFacts', {
      errors: { 404: 'No licence claim on this account (or a rejected one)' },
    }),
  providersRequest: forward(PROVIDERS_SUBJECTS.requestAccess, {
    method: 'POST', path: '/api/providers/access-requests/', tag: 'providers', auth: 'bearer', rateLimit: 'per-client',
    summary: "A provider asks for the documents behind a shared summary ('View past medical history')",
    description: 'The patient is told and decides; a link the patient marked for providers pre-approves verified providers for a day.',
    body: RequestAccessDto,
    reply: { status: 200, shape: 'RequestAccessReply' },
    errors: {
      403: "Not a provider (verify at POST /api/medical-license/ first), or 'This link needs a passcode.' (a passcode link without a valid view_token)",
      404: "'This link is not valid.' (revoked, expired, locked or unknown)",
      409: 'The patient changed the link while access was being given (nothing was given; ask again)',
    },
  }),
  providersAccess: ownRead(PROVIDERS_SUBJECTS.patientAccess, '/api/providers/access/', 'providers',
    'The patient: pending requests from providers, and every grant (with revoke)', 'PatientAccessReply'),
  providersDecide: forward(PROVIDERS_SUBJECTS.decide, {
    method: 'POST', path: '/api/providers/access-requests/{requestId}/decision/', tag: 'providers', auth: 'bearer', rateLimit: 'per-client',
    summary: 'The patient approves a request (for a day, a week or a month) or declines it',
    params: { requestId: { description: 'A pending request id from GET /api/providers/access/', format: 'uuid', notFound: 'Not found.' } },
    paramNames: { requestId: 'request_id' },
    body: DecideRequestBodyDto,
    reply: { status: 200, shape: 'PatientAccessReply' },
    errors: { 404: 'No such pending request of yours' },
  }),
  providersRevoke: forward(PROVIDERS_SUBJECTS.revoke, {
    method: 'DELETE', path: '/api/providers/grants/{grantId}/', tag: 'providers', auth: 'bearer', rateLimit: 'per-client',
    summary: "The patient revokes a provider's access (at once)",
    params: { grantId: { description: 'A grant id from GET /api/providers/access/', format: 'uuid', notFound: 'Not found.' } },
    paramNames: { grantId: 'grant_id' },
    reply: { status: 200, shape: 'PatientAccessReply' },
    errors: { 404: 'No such grant of yours' },
  }),
  providersPatients: forward(PROVIDERS_SUBJECTS.patients, {
    method: 'GET', path: '/api/providers/patients/', tag: 'providers', auth: 'bearer', rateLimit: 'provider',
    summary: 'The provider: patients who granted access now (rate limited per provider)',
    reply: { status: 200, shape: 'ProviderPatientItem[]' },
    errors: { 403: 'Not a provider', 429: PROVIDER_LIMIT },
  }),
  providersSummary: forward(PROVIDERS_SUBJECTS.patientSummary, {
    method: 'GET', path: '/api/providers/patients/{patientId}/summary/', tag: 'providers', auth: 'bearer', rateLimit: 'provider',
    summary: "The provider: the patient's summary as JSON (as the patient sees it, hidden facts left out)",
    params: { patientId: PATIENT_ID },
    paramNames: { patientId: 'patient_id' },
    reply: { status: 200, shape: 'SummaryItem' },
    errors: { 404: NOT_GRANTED, 429: PROVIDER_LIMIT },
  }),
  providersIps: forward(PROVIDERS_SUBJECTS.patientIps, {
    method: 'GET', path: '/api/providers/patients/{patientId}/summary/fhir/', tag: 'providers', auth: 'bearer', rateLimit: 'provider',
    summary: "The provider: the patient's summary as a FHIR R4 International Patient Summary (IPS) document Bundle",
    description: 'The same content as the JSON summary (the confirmed version, hidden facts left out), as `application/fhir+json`.',
    params: { patientId: PATIENT_ID },
    paramNames: { patientId: 'patient_id' },
    reply: { status: 200, shape: 'FhirBundle', media: { type: 'application/fhir+json', schema: 'json' } },
    errors: { 404: NOT_GRANTED, 429: PROVIDER_LIMIT },
  }),
  providersDocuments: forward(PROVIDERS_SUBJECTS.patientDocuments, {
    method: 'GET', path: '/api/providers/patients/{patientId}/documents/', tag: 'providers', auth: 'bearer', rateLimit: 'provider',
    summary: "The provider: the patient's documents (read-only; each listing is in the patient's access history)",
    params: { patientId: PATIENT_ID },
    paramNames: { patientId: 'patient_id' },
    reply: { status: 200, shape: 'DocumentListItem[]' },
    errors: { 404: NOT_GRANTED, 429: PROVIDER_LIMIT },
  }),
  providersDownloadLink: forward(PROVIDERS_SUBJECTS.patientDownloadLink, {
    method: 'GET', path: '/api/providers/patients/{patientId}/documents/{documentId}/download-link/', tag: 'providers', auth: 'bearer', rateLimit: 'provider',
    summary: "The provider: a 5-minute download link to one of the patient's documents (in the patient's access history)",
    params: { patientId: PATIENT_ID, documentId: { description: 'A document id from the patient’s document list', format: 'uuid', notFound: 'Not found.' } },
    paramNames: { patientId: 'patient_id', documentId: 'document_id' },
    timeoutMs: DOWNLOAD_LINK_TIMEOUT_MS,
    reply: { status: 200, shape: 'DownloadLinkReply' },
    errors: { 404: NOT_GRANTED, 429: PROVIDER_LIMIT },
  }),
} as const;
