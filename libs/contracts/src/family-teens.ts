import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNotEmpty, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import type { RpcShape } from './rpc-map';
import type { MessageReply } from './identity';

/**
 * Family, second round (issue 30): a dependant's own sign-in, a teen's assent to their proxies,
 * and documents hidden from proxies (docs/guide/family.md).
 *
 * - **Claiming a record.** The guardian e-mails a dependant (13 or over, with FAMILY_TEEN_SIGN_IN;
 *   or 18 and over, up to FAMILY_CLAIM_GRACE_DAYS after the 18th birthday) a link. Whoever opens it
 *   chooses a password and gets an account **whose user id is the dependant's id** (identity's
 *   `users` row is created with that id): the JWT `sub` is then the record's id, so every service,
 *   which keys data by it, needs no change and no mapping. The address is the invited one (the
 *   link proves the mailbox, so the account starts verified).
 * - **Assent** (FAMILY_TEEN_ASSENT_REQUIRED): after claiming, the teen answers whether their
 *   guardian(s) and caregivers keep access. Declining ends every grant on the record at once and
 *   e-mails the guardian(s); accepting keeps them until the 18th birthday.
 * - **Private documents**: the owner, acting as themself, marks a document private; proxies
 *   (a caller with `actor`) no longer see it in lists or download it, and the summary and trends a
 *   proxy reads leave out what came only from private documents.
 */
export const FAMILY_TEEN_SUBJECTS = {
  /** Caller = the guardian (own caller): ClaimInviteDto → FamilyClaimInvite (e-mails the link). */
  claimInvite: 'identity.family.claim-invite',
  /** Anyone: FamilyClaimTokenDto → FamilyClaimPreview. */
  previewClaim: 'identity.family.preview-claim',
  /** Anyone: ClaimRecordDto → MessageReply (the account exists; sign in with it). */
  claim: 'identity.family.claim',
  /** Caller = the record's owner: no payload → FamilyAssent. */
  assent: 'identity.family.assent',
  /** Caller = the record's owner: AssentDto → FamilyAssent. */
  answerAssent: 'identity.family.answer-assent',
} as const;

export const FAMILY_TEEN_MESSAGES = {
  claimTooYoung: (firstName: string) => `${firstName} can have their own sign-in from their 13th birthday.`,
  teenSignInOff: (firstName: string) => `${firstName} can have their own sign-in from their 18th birthday.`,
  claimTooLate: (firstName: string) => `${firstName} turned 18 too long ago for you to send this: they can contact support to claim their record.`,
  alreadyClaimed: (firstName: string) => `${firstName} already has their own sign-in.`,
  notGuardian: 'Only a guardian can invite a family member to their own sign-in.',
  claimInvalid: 'This link is not valid: it may have expired, been replaced or already been used.',
  claimEmailTaken:
    'This address already has an account. A record can only be claimed with a new account (its id is the record\'s); ask your guardian to send the link to another address.',
  claimed: (firstName: string) => `Welcome, ${firstName}: your record is yours now. Sign in with your e-mail address and the password you chose.`,
  notATeenRecord: 'There is nothing to decide: nobody else has access to your record as your guardian.',
  guardianRoleOnlyForChild: 'Only a guardian can invite another guardian, and only to the record of a family member under 18.',
  privateOwnerOnly: 'Only the person whose record it is can mark a document private.',
} as const;

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** POST /api/family/members/{memberId}/claim-invite/'s body. */
export class ClaimInviteBodyDto {
  @Transform(lower)
  @IsEmail({}, { message: 'Enter a valid e-mail address.' })
  @MaxLength(320, { message: 'Enter a valid e-mail address.' })
  email!: string;
}

export class ClaimInviteDto extends ClaimInviteBodyDto {
  @IsUUID('all', { message: 'No such family member.' })
  member_id!: string;
}

/** A claim link's secret (43 characters of base64url). */
export class FamilyClaimTokenDto {
  @IsString({ message: FAMILY_TEEN_MESSAGES.claimInvalid })
  @Matches(/^[A-Za-z0-9_-]{20,100}$/, { message: FAMILY_TEEN_MESSAGES.claimInvalid })
  token!: string;
}

/** POST /api/family/claims/{token}/'s body: the new account's password (8 to 100 characters). */
export class ClaimRecordBodyDto {
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MinLength(8, { message: 'Password must be at least 8 characters' })
  @MaxLength(100, { message: 'Limit exceeded (100 characters)' })
  password!: string;
}

export class ClaimRecordDto extends ClaimRecordBodyDto {
  @IsString({ message: FAMILY_TEEN_MESSAGES.claimInvalid })
  @Matches(/^[A-Za-z0-9_-]{20,100}$/, { message: FAMILY_TEEN_MESSAGES.claimInvalid })
  token!: string;
}

/** POST /api/family/assent/'s body. */
export class AssentDto {
  @IsBoolean({ message: 'keep_access must be true or false' })
  keep_access!: boolean;
}

export interface FamilyClaimInvite {
  id: string;
  patient_id: string;
  email: string;
  expires_at: string;
  status: 'pending' | 'claimed' | 'replaced' | 'expired';
}

/** GET /api/family/claims/{token}/ (public): what the claim page needs. */
export interface FamilyClaimPreview {
  patient_first_name: string;
  inviter_first_name: string;
  /** The address the account will have (the invited one). */
  email: string;
  expires_at: string;
}

/** A record's owner's answer about their guardian's (and caregivers') continued access. */
export interface FamilyAssent {
  /**
   * 'pending': to be answered (a claimed teen with live proxies, FAMILY_TEEN_ASSENT_REQUIRED on);
   * 'given' / 'declined': answered; 'not-needed': not a claimed teen record, or the setting is off.
   */
  status: 'pending' | 'given' | 'declined' | 'not-needed';
  /** First names of the people with live proxy access (guardians first). */
  proxies: { first_name: string; role: string }[];
  answered_at: string | null;
}

/** PATCH /api/documents/{documentId}/'s body. */
export class DocumentPrivacyBodyDto {
  @IsBoolean({ message: 'private must be true or false' })
  private!: boolean;
}

export class DocumentPrivacyDto extends DocumentPrivacyBodyDto {
  @IsUUID('all', { message: 'document_id must be the id of one of your documents.' })
  document_id!: string;
}

/**
 * documents.document.privacy-changed.v1 (DOCUMENTS stream): the owner marked a document private
 * (hidden from proxies) or not. summary keeps the flag with its document row.
 */
export class DocumentPrivacyChangedEvent {
  @IsUUID('all', { message: 'document_id must be a document id' })
  document_id!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  owner_id!: string;

  @IsBoolean()
  private!: boolean;
}

export const DOCUMENT_PRIVACY_SUBJECTS = {
  /** Request/reply: DocumentPrivacyDto (caller = the owner, no actor) → DocumentListItem. */
  setPrivate: 'documents.document.set-private',
  /** Event (DOCUMENTS stream): DocumentPrivacyChangedEvent. */
  privacyChanged: 'documents.document.privacy-changed.v1',
} as const;

export interface FamilyTeensRpc {
  [FAMILY_TEEN_SUBJECTS.claimInvite]: RpcShape<ClaimInviteDto, FamilyClaimInvite>;
  [FAMILY_TEEN_SUBJECTS.previewClaim]: RpcShape<FamilyClaimTokenDto, FamilyClaimPreview>;
  [FAMILY_TEEN_SUBJECTS.claim]: RpcShape<ClaimRecordDto, MessageReply>;
  [FAMILY_TEEN_SUBJECTS.assent]: RpcShape<Record<string, never>, FamilyAssent>;
  [FAMILY_TEEN_SUBJECTS.answerAssent]: RpcShape<AssentDto, FamilyAssent>;
  [DOCUMENT_PRIVACY_SUBJECTS.setPrivate]: RpcShape<DocumentPrivacyDto, import('./documents').DocumentListItem>;
}
