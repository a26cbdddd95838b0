import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import type { RpcShape } from './rpc-map';
import type { DocumentListItem, DownloadLinkReply } from './documents';
import type { SummaryItem } from './summary';
import type { FhirBundle } from './share-formats';
import { stacked } from './rules';
import { OptionalViewToken, ShareId } from './sharing';

/**
 * Providers: licence verification and the provider role (identity, which owns accounts
 * and issues tokens), and patient-granted access to documents (documents, which owns who may see
 * a document). The gateway's /api/medical-license/ and /api/providers/... routes call these.
 */
export const PROVIDER_ROLE = 'provider';
export const PATIENT_ROLE = 'patient';

/**
 * How far a provider's identity is established. A registry name match is a
 * claim, not proof (NPPES is public): 'self_attested' = the NPI exists and its registry name matches
 * the account's; 'verified' = an operator confirmed it (review queue). Only 'verified' providers are
 * let in by a link that pre-approves providers; a self-attested one may only ask, and the patient
 * sees "claims to be Dr X (NPI ...); not verified".
 */
export const PROVIDER_VERIFICATIONS = ['self_attested', 'verified'] as const;
export type ProviderVerification = (typeof PROVIDER_VERIFICATIONS)[number];

/**
 * Where a licence claim stands in the operator's review: 'pending' (self-attested, waiting for an
 * operator), 'verified', 'disputed' (another account says the NPI is theirs; an operator decides),
 * 'rejected' (no provider role).
 */
export type LicenseReviewState = 'pending' | 'verified' | 'disputed' | 'rejected';

/**
 * How a patient is shown a provider: the name as is when verified, otherwise
 * "claims to be Dr Ana Ruiz (NPI 1234567893); not verified". Anything but 'verified' (also a missing
 * level, on records made before the levels existed) is a claim.
 */
export function providerLabel(provider: { display_name: string; verification?: ProviderVerification | null }): string {
  return provider.verification === 'verified' ? provider.display_name : `claims to be ${provider.display_name}; not verified`;
}

export const PROVIDER_MESSAGES = {
  /** The seed's texts (spec section 4, "License check"). */
  verified: 'License verified successfully!',
  notFound: 'Medical License Number Not Found, Please Try Again',
  /** The registry could not be asked (down, 5xx, time-out): not the user's fault, not "not found". */
  unavailable: 'We cannot verify licenses right now. Please try again later.',
  required: 'Medical License Number is required',
  nameMismatch: "The registry's record for this number is under another name. The name on your profile must match it.",
  organisation: 'This number belongs to an organisation. Enter your own (individual) NPI.',
  claimed: 'This license number is already verified on another account.',
  /** The registry name matches, but another account claims the number: the real holder may dispute. */
  claimedDisputable:
    'This license number is already claimed by another account. If it is yours, you can dispute that claim: an operator reviews it, and meanwhile the other account cannot be pre-approved by any link.',
  disputeFiled: 'Your dispute was filed. An operator will review both claims and contact you at your account e-mail address.',
  disputeNotNeeded: 'This license number is not claimed by another account: verify it instead.',
  /** A self-attested claim (registry name match only). The seed's success text stays `verified` above. */
  selfAttested: 'Your NPI and name match the registry. Until an operator confirms your identity you are a self-attested provider: you can ask patients for access, and they see that you are not verified yet.',
  rejected: 'Your license claim was rejected after review. Contact support if you think this is a mistake.',
  notProvider: 'Only verified providers can do this. Verify your license at /medical-license first.',
  /** Every refusal of a patient's data, whatever the reason (no grant, revoked, expired, unknown). */
  patientNotFound: 'Patient not found.',
  requestNotFound: 'Request not found.',
  requested: 'Your request was sent to the patient. You will see their documents once they approve it.',
  alreadyGranted: 'You already have access to this patient\'s documents.',
  granted: 'The patient lets verified providers see the documents behind this summary: you have access now.',
  /** The link was changed (its documents setting turned off) while access was being given: nothing was given. */
  linkChanged: 'The patient changed this link while you asked, so no access was given. Please ask again.',
  /** A self-attested provider on a link that pre-approves verified providers: asked instead. */
  requestedNotVerified:
    'Your request was sent to the patient. This link lets verified providers in at once, but your identity is not verified yet (review pending), so the patient decides.',
} as const;

/** POST /api/medical-license/ (the seed's field: the licence number; for the NPI registry, a 10-digit NPI). */
export class VerifyLicenseDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.replace(/[\s-]/g, '') : value))
  @IsString({ message: PROVIDER_MESSAGES.required })
  @IsNotEmpty({ message: PROVIDER_MESSAGES.required })
  @MaxLength(40, { message: PROVIDER_MESSAGES.notFound })
  license_number!: string;
}

/** What the registry said about a verified provider (kept by identity, shown on /profile). */
export interface ProviderFacts {
  /** The licence number as verified (an NPI for the NPPES registry). */
  npi: string;
  /** Which verifier confirmed it, e.g. 'nppes'. */
  registry: string;
  first_name: string;
  last_name: string;
  /** e.g. 'MD', 'M.D.', 'DO'; empty when the registry gives none. */
  credential: string;
  /** The primary taxonomy's description, e.g. 'Internal Medicine'. */
  specialty: string;
  /** The primary taxonomy's licence state, e.g. 'CA'; empty when none. */
  state: string;
  /** ISO 8601: when the registry matched the number and the account's name (the claim). */
  verified_at: string;
  /** How the provider is shown to patients: "Dr Ana Ruiz (NPI 1234567893)". */
  display_name: string;
  /** 'verified' only once an operator confirmed the claim and no dispute is open. */
  verification: ProviderVerification;
  /** Where the claim stands in the operator's review. */
  review: LicenseReviewState;
  /** ISO 8601: when an operator verified the claim; null until then. */
  reviewed_at: string | null;
}

/** POST /api/medical-license/ answer (200). Refusals are errors with the messages above. */
export interface VerifyLicenseReply {
  message: string;
  provider: ProviderFacts;
}

/** Service to service (documents → identity): a user's address and first name, to tell them something. */
export class UserContactDto {
  @IsUUID('all')
  user_id!: string;
}

export interface UserContact {
  email: string;
  first_name: string;
}

/**
 * POST /api/providers/access-requests/ body: the share id of the summary page the provider is on,
 * and for a passcode link the view token its passcode gave (POST /api/summary/unlock/): without it a
 * passcode link answers 403 "This link needs a passcode." and nothing is asked or granted.
 */
export class RequestAccessDto {
  @ShareId()
  share_id!: string;

  @OptionalViewToken()
  view_token?: string;
}

export const GRANT_DURATIONS = ['day', 'week', 'month'] as const;
export type GrantDuration = (typeof GRANT_DURATIONS)[number];
export const GRANT_DURATION_SECONDS: Record<GrantDuration, number> = { day: 86_400, week: 7 * 86_400, month: 30 * 86_400 };

/** The patient's decision on an access request. */
function Decision(): PropertyDecorator {
  return IsIn(['approve', 'decline'], { message: 'decision must be approve or decline.' });
}

/** How long an approval lasts: required when the decision is approve. */
function ApprovalDuration(): PropertyDecorator {
  return stacked(
    ValidateIf((o: { decision?: string }) => o.decision === 'approve'),
    IsIn(GRANT_DURATIONS, { message: 'duration must be day, week or month.' }),
  );
}

/** POST /api/providers/access-requests/{id}/decision/ (the patient). */
export class DecideRequestDto {
  @IsUUID('all', { message: PROVIDER_MESSAGES.requestNotFound })
  request_id!: string;

  @Decision()
  decision!: 'approve' | 'decline';

  /** Required for approve: how long the provider may see the documents. */
  @ApprovalDuration()
  duration?: GrantDuration;
}

export class DecideRequestBodyDto {
  @Decision()
  decision!: 'approve' | 'decline';

  /** Required for approve. */
  @ApprovalDuration()
  duration?: GrantDuration;
}

export class GrantIdDto {
  @IsUUID('all', { message: PROVIDER_MESSAGES.requestNotFound })
  grant_id!: string;
}

export class PatientIdDto {
  @IsUUID('all', { message: PROVIDER_MESSAGES.patientNotFound })
  patient_id!: string;
}

export class PatientDocumentDto extends PatientIdDto {
  @IsUUID('all', { message: 'document_id must be the id of one of the patient\'s documents.' })
  document_id!: string;
}

/** The provider as the patient sees them on a request or grant. */
export interface ProviderSummary {
  user_id: string;
  display_name: string;
  /** The level when the request or grant was made; show with providerLabel(). */
  verification: ProviderVerification;
  npi: string;
  credential: string;
  specialty: string;
  state: string;
}

export type AccessRequestState = 'pending' | 'approved' | 'declined';

export interface AccessRequestItem {
  id: string;
  provider: ProviderSummary;
  /** The share link's label the provider came through (e.g. 'Default'). */
  link_label: string;
  state: AccessRequestState;
  /** ISO 8601. */
  created_at: string;
}

export interface GrantItem {
  id: string;
  provider: ProviderSummary;
  /** 'approved' (the patient approved a request) or 'share-link' (a link made with providers_may_see_documents). */
  source: 'approved' | 'share-link';
  /** ISO 8601. */
  granted_at: string;
  expires_at: string;
  revoked_at: string | null;
  active: boolean;
}

/** GET /api/providers/access/ (the patient): pending requests, and every grant (active and past, so /history can name providers). */
export interface PatientAccessReply {
  requests: AccessRequestItem[];
  grants: GrantItem[];
}

/** POST /api/providers/access-requests/ answer. */
export interface RequestAccessReply {
  message: string;
  state: 'pending' | 'granted';
  /** The patient's id once access is granted (for /providers/patients/{id}); null while pending. */
  patient_id: string | null;
}

/** One patient on the provider's list (GET /api/providers/patients/). */
export interface ProviderPatientItem {
  patient_id: string;
  /**
   * The patient's first name, enough to tell the list's patients apart. The summary behind a grant
   * (page, PDF, FHIR) names the patient in full with the date of birth: a doctor must know whose
   * record it is, and the patient approved this provider by name.
   */
  first_name: string;
  grant_id: string;
  /** ISO 8601. */
  expires_at: string;
}

/** Service to service (summary → documents): does the caller (a provider) hold an active grant to this patient? */
export interface GrantCheckReply {
  grant_id: string;
  /** The provider as the grant names them ("Dr Ana Ruiz (NPI 1234567893)"), for the patient's history. */
  display_name: string;
}

/** POST /api/medical-license/dispute/ answer (201): the real holder disputes another account's claim. */
export interface DisputeLicenseReply {
  message: string;
  dispute_id: string;
}

export const PROVIDERS_SUBJECTS = {
  /** identity: VerifyLicenseDto → VerifyLicenseReply (caller = the signed-in user). */
  verifyLicense: 'identity.provider.verify-license',
  /** identity: VerifyLicenseDto → DisputeLicenseReply (the caller says another account's claimed NPI is theirs). */
  disputeLicense: 'identity.provider.dispute-license',
  /** identity: the caller's own provider facts → ProviderFacts; NOT_FOUND when not verified. */
  getProvider: 'identity.provider.get',
  /** identity, service to service only (no gateway route): UserContactDto → UserContact. */
  userContact: 'identity.user.contact',
  /** documents: RequestAccessDto → RequestAccessReply (caller = a verified provider). */
  requestAccess: 'documents.access-request.create',
  /** documents: the caller's (patient's) requests and grants. */
  patientAccess: 'documents.access.list',
  /** documents: DecideRequestDto → PatientAccessReply (the patient). */
  decide: 'documents.access-request.decide',
  /** documents: GrantIdDto → PatientAccessReply (the patient revokes). */
  revoke: 'documents.grant.revoke',
  /** documents: the caller's (provider's) patients with an active grant. */
  patients: 'documents.grant.patients',
  /** documents: PatientIdDto → DocumentListItem[] (provider with an active grant, else NOT_FOUND). */
  patientDocuments: 'documents.grant.documents',
  /** documents: PatientDocumentDto → DownloadLinkReply (provider with an active grant, else NOT_FOUND). */
  patientDownloadLink: 'documents.grant.download-link',
  /** documents, service to service: PatientIdDto → GrantCheckReply; NOT_FOUND without an active grant. */
  checkGrant: 'documents.grant.check',
  /** summary: PatientIdDto → SummaryItem, the patient's confirmed summary as a share shows it (provider with an active grant, else NOT_FOUND). */
  patientSummary: 'summary.provider-summary.get',
  /** summary: PatientIdDto → FhirBundle, the same summary as a FHIR R4 IPS document Bundle. */
  patientIps: 'summary.provider-summary.ips',
} as const;

export interface ProvidersRpc {
  [PROVIDERS_SUBJECTS.verifyLicense]: RpcShape<VerifyLicenseDto, VerifyLicenseReply>;
  [PROVIDERS_SUBJECTS.disputeLicense]: RpcShape<VerifyLicenseDto, DisputeLicenseReply>;
  [PROVIDERS_SUBJECTS.getProvider]: RpcShape<Record<string, never>, ProviderFacts>;
  [PROVIDERS_SUBJECTS.userContact]: RpcShape<UserContactDto, UserContact>;
  [PROVIDERS_SUBJECTS.requestAccess]: RpcShape<RequestAccessDto, RequestAccessReply>;
  [PROVIDERS_SUBJECTS.patientAccess]: RpcShape<Record<string, never>, PatientAccessReply>;
  [PROVIDERS_SUBJECTS.decide]: RpcShape<DecideRequestDto, PatientAccessReply>;
  [PROVIDERS_SUBJECTS.revoke]: RpcShape<GrantIdDto, PatientAccessReply>;
  [PROVIDERS_SUBJECTS.patients]: RpcShape<Record<string, never>, ProviderPatientItem[]>;
  [PROVIDERS_SUBJECTS.patientDocuments]: RpcShape<PatientIdDto, DocumentListItem[]>;
  [PROVIDERS_SUBJECTS.patientDownloadLink]: RpcShape<PatientDocumentDto, DownloadLinkReply>;
  [PROVIDERS_SUBJECTS.checkGrant]: RpcShape<PatientIdDto, GrantCheckReply>;
  [PROVIDERS_SUBJECTS.patientSummary]: RpcShape<PatientIdDto, SummaryItem>;
  [PROVIDERS_SUBJECTS.patientIps]: RpcShape<PatientIdDto, FhirBundle>;
}
