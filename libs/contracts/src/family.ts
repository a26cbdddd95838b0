import { Transform } from 'class-transformer';
import { Equals, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { RpcShape } from './rpc-map';
import { NonEmptyString, rules } from './rules';

/**
 * Family and caregivers (issue 30). identity owns households, as it owns people:
 * - a **dependant** is a person without a sign-in of their own (a child), added by an account
 *   holder who becomes their guardian; their id is a user id like any other, so every service keys
 *   the dependant's documents, summary, share links, pass and history by it;
 * - a **grant** gives another signed-in person (a caregiver) access to a record, with a role:
 *   `view` (read, download, see the summary) or `manage` (also upload, review and confirm, share,
 *   revoke shares); the guardian of a dependant holds a `guardian` grant;
 * - an **invite** is how a grant is made: e-mailed to an address, accepted by whoever signs in
 *   with the link (see docs/guide/family.md for why the address need not match).
 *
 * Patient routes act on another person's record with the `X-Patient-Id` header (or a `patient`
 * query parameter); the gateway asks identity (`identity.family.access`) for the caller's role on
 * that record at every request and the caller identity then carries `actor` (caller.ts).
 * Request/reply subjects: `identity.family.<verb>`.
 */
export const FAMILY_SUBJECTS = {
  /** Caller = the account holder: no payload → FamilyOverview. */
  overview: 'identity.family.overview',
  /** Caller = the account holder: AddDependantDto → FamilyRecord (the new dependant's record). */
  addDependant: 'identity.family.add-dependant',
  /** Caller = who administers the record: UpdateFamilyMemberDto → FamilyMember. */
  updateMember: 'identity.family.update-member',
  /**
   * Caller = who administers the record (or a caregiver leaving): RemoveFamilyMemberDto →
   * FamilyRemovalReply. A caregiver's grant is revoked at once; a dependant (guardian only, with
   * `confirm_name`) is erased: identity ends everything at once and the services delete the data
   * on `identity.user.record-erased.v1` (erasure.ts).
   */
  removeMember: 'identity.family.remove-member',
  /** Caller = who administers the record: CreateFamilyInviteDto → FamilyInvite (e-mails the link). */
  invite: 'identity.family.invite',
  /** Caller = who made it (or administers the record): FamilyInviteIdDto → FamilyInvite (status withdrawn). */
  withdrawInvite: 'identity.family.withdraw-invite',
  /** Anyone: FamilyInviteTokenDto → FamilyInvitePreview. */
  previewInvite: 'identity.family.preview-invite',
  /** Caller = the signed-in account accepting: FamilyInviteTokenDto → FamilyRecord. */
  acceptInvite: 'identity.family.accept-invite',
} as const;

/** identity, service to service only (no gateway route can name these). */
export const FAMILY_SERVICE_SUBJECTS = {
  /**
   * The gateway, at every request that names another person's record: FamilyAccessDto (with the
   * signed-in caller) → FamilyAccessReply, or 403 FAMILY_MESSAGES.noAccess. Not cached: a revoked
   * or expired grant is refused from the next request on.
   */
  access: 'identity.family.access',
  /**
   * audit, building a patient's history: FamilyNamesDto → FamilyNamesReply (the first names of the
   * people who acted on the record, and how they relate to it).
   */
  names: 'identity.family.names',
  /** Event (IDENTITY stream): HouseholdChangedEvent, when a dependant is added or removed. */
  householdChanged: 'identity.user.household-changed.v1',
} as const;

export const FAMILY_ROLES = ['guardian', 'manage', 'view'] as const;
export type FamilyRole = (typeof FAMILY_ROLES)[number];
/** The roles an invite or a role change may give (guardian comes only with adding a dependant). */
export const GRANTABLE_ROLES = ['view', 'manage'] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];
/** The caller's role on a record: their own ('owner'), or a grant's. */
export type RecordRole = 'owner' | FamilyRole;
/** The least role a route needs to act on another person's record (RouteDefinition.onBehalf). */
export type OnBehalfRole = 'view' | 'manage';
export type AgeBand = 'child' | 'teen' | 'adult';

/** The header (and the query parameter) that names the record a patient route acts on. */
export const PATIENT_HEADER = 'x-patient-id';
export const PATIENT_QUERY = 'patient';

/** What a role allows: manage ⊇ view; guardian and owner allow everything. */
export function roleAllows(role: RecordRole, needed: OnBehalfRole): boolean {
  if (role === 'owner' || role === 'guardian' || role === 'manage') return true;
  return needed === 'view';
}

export const FAMILY_MESSAGES = {
  noAccess: 'You do not have access to this record.',
  notOnBehalf: 'This action is only for your own account; it cannot be done for another person.',
  viewOnly: (firstName: string) => `You can view ${firstName}'s record but not change it. Ask the person who manages it for the manage role.`,
  familyPlanNeeded: 'Adding a family member needs the Family plan.',
  notYourMember: 'No such family member.',
  notYourInvite: 'No such invitation.',
  inviteInvalid: 'This invitation is not valid: it may have expired, been withdrawn or already been used.',
  inviteSelf: 'You cannot accept an invitation to your own record.',
  alreadyHasAccess: 'You already have access to this record.',
  notAdmin: 'Only the person whose record it is, or their guardian, can do this.',
  dobInFuture: 'Date of birth cannot be in the future.',
  dobAdult: 'A family member you add must be under 18. Adults sign up themselves and invite you as a caregiver.',
  dobInvalid: 'Date of birth must be a date written YYYY-MM-DD.',
  roleOrRenew: 'Send a role (view or manage) or renew: true.',
  guardianFixed: "A guardian's role cannot be changed; remove the family member instead.",
  dependantRenew: 'A family member you added has no access grant to renew.',
  cannotRenewAdult: (firstName: string) =>
    `${firstName} is 18 now: your access ended on their 18th birthday and only ${firstName} can give it again, once they have their own sign-in.`,
  confirmNameNeeded: (firstName: string) => `To remove ${firstName} and erase their record, type their first name (${firstName}) to confirm.`,
  confirmNameWrong: (firstName: string) => `The name you typed does not match. Type ${firstName} to confirm.`,
  onlyGuardianRemoves: (firstName: string) => `Only ${firstName}'s guardian can remove ${firstName}.`,
  onlyHolderRemoves: (firstName: string) => `Only the person who added ${firstName} can remove ${firstName}'s record.`,
  guardianNotRevocable: (firstName: string) => `A guardian's access cannot be revoked; remove ${firstName} instead.`,
  erasing: (firstName: string) =>
    `${firstName} is removed. Their record is being erased: documents and stored files, summary, share links, wallet pass and hospital connections are deleted within minutes, and share links stopped working now. Their access history is kept as the law requires, but nobody can read it any more.`,
  removed: 'Removed.',
  revoked: 'Access revoked.',
  recordFull: (firstName: string) => `${firstName}'s record is full`,
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

function Name(message: string): PropertyDecorator {
  return rules(Transform(trim), IsString({ message }), IsNotEmpty({ message }), MaxLength(100, { message: 'Limit exceeded (100 characters)' }));
}

/** POST /api/family/members/: a dependant (a child under 18, without a sign-in of their own). */
export class AddDependantDto {
  @Name('First name is required')
  first_name!: string;

  @Name('Last name is required')
  last_name!: string;

  /** YYYY-MM-DD, a real date, in the past, less than 18 years ago. */
  @IsString({ message: 'Date of birth is required' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: FAMILY_MESSAGES.dobInvalid })
  date_of_birth!: string;
}

export class FamilyMemberIdDto {
  @IsUUID('all', { message: FAMILY_MESSAGES.notYourMember })
  member_id!: string;
}

/** DELETE /api/family/members/{id}/'s body: for a dependant, their first name typed to confirm. */
export class RemoveFamilyMemberBodyDto {
  @IsOptional()
  @IsString({ message: 'confirm_name must be text' })
  @MaxLength(100, { message: 'Limit exceeded (100 characters)' })
  confirm_name?: string;
}

export class RemoveFamilyMemberDto extends RemoveFamilyMemberBodyDto {
  @IsUUID('all', { message: FAMILY_MESSAGES.notYourMember })
  member_id!: string;
}

/** DELETE /api/family/members/{id}/'s answer: 200 for a caregiver's revoked access, 202 (accepted) for a dependant's record being erased. */
export interface FamilyRemovalReply {
  message: string;
  /** true: a dependant's record is being erased across services (the gateway answers 202). */
  accepted: boolean;
  /** When the record was erased (a dependant), else null. */
  erased_at: string | null;
}

/** PATCH /api/family/members/{id}/'s body. */
export class UpdateFamilyMemberBodyDto {
  @IsOptional()
  @IsIn(GRANTABLE_ROLES, { message: 'role must be view or manage' })
  role?: GrantableRole;

  @IsOptional()
  @Equals(true, { message: 'renew must be true when sent' })
  renew?: true;
}

export class UpdateFamilyMemberDto extends UpdateFamilyMemberBodyDto {
  @IsUUID('all', { message: FAMILY_MESSAGES.notYourMember })
  member_id!: string;
}

export class CreateFamilyInviteDto {
  @IsUUID('all', { message: 'patient_id must be the id of a record you administer' })
  patient_id!: string;

  @Transform(lower)
  @IsEmail({}, { message: 'Enter a valid e-mail address.' })
  @MaxLength(320, { message: 'Enter a valid e-mail address.' })
  email!: string;

  /** 'guardian' (a co-parent): only a guardian may give it, and only on the record of a dependant under 18. */
  @IsIn(FAMILY_ROLES, { message: 'role must be view, manage or guardian' })
  role!: FamilyRole;
}

export class FamilyInviteIdDto {
  @IsUUID('all', { message: FAMILY_MESSAGES.notYourInvite })
  invite_id!: string;
}

/** An invitation link's secret (43 characters of base64url). */
export class FamilyInviteTokenDto {
  @IsString({ message: FAMILY_MESSAGES.inviteInvalid })
  @Matches(/^[A-Za-z0-9_-]{20,100}$/, { message: FAMILY_MESSAGES.inviteInvalid })
  token!: string;
}

/** identity.family.access: the record the request names (the caller comes with the message). */
export class FamilyAccessDto {
  @IsUUID('all', { message: FAMILY_MESSAGES.noAccess })
  patient_id!: string;

  /** The least role the route needs; a smaller one is refused (403) with FAMILY_MESSAGES.viewOnly. */
  @IsIn(['view', 'manage'])
  needed!: OnBehalfRole;
}

export interface FamilyAccessReply {
  role: RecordRole;
  /** The record's person's first name (for messages: "Leo's record is full"). */
  patient_first_name: string;
}

export class FamilyNamesDto {
  @IsUUID()
  patient_id!: string;

  @IsUUID('all', { each: true })
  user_ids!: string[];
}

export interface FamilyNamesReply {
  /** One per known id: the first name, and how the person relates to the record. */
  people: { user_id: string; first_name: string; relation: 'self' | 'guardian' | 'caregiver' | 'former caregiver' }[];
}

/** A record the caller may open. */
export interface FamilyRecord {
  patient_id: string;
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD, or null when unknown. */
  date_of_birth: string | null;
  /** 'self': the caller's own; 'dependant': a person the caller added; 'shared': someone else's record shared with the caller. */
  kind: 'self' | 'dependant' | 'shared';
  my_role: RecordRole;
  /** child under 13, teen 13–17, adult 18+; null without a date of birth. */
  age_band: AgeBand | null;
  /** ISO time the caller's access ends (a proxy grant's expiry), or null. */
  access_expires_at: string | null;
}

/** A person around a record the caller administers. */
export interface FamilyMember {
  /** For a dependant: their patient id; for a caregiver: the grant's id. */
  id: string;
  kind: 'dependant' | 'caregiver';
  /** The record this member belongs to (a dependant's own, or the one the caregiver may open). */
  patient_id: string;
  name: string;
  email: string | null;
  role: FamilyRole;
  status: 'active' | 'expired' | 'revoked';
  last_active_at: string | null;
  expires_at: string | null;
  date_of_birth: string | null;
  /**
   * For a dependant: their own sign-in (docs/guide/family.md, "A dependant's own sign-in"):
   * 'none', 'invited' (a claim link is pending), 'signed-in' (claimed). null for a caregiver.
   */
  sign_in?: 'none' | 'invited' | 'signed-in' | null;
  /** For a claimed teen: their answer about their proxies' access ('pending', 'given', 'declined'); otherwise null. */
  assent?: 'pending' | 'given' | 'declined' | null;
  /** A guardian grant of the person who added the child (nobody can revoke it); false for a co-parent's. Absent for other roles. */
  first_guardian?: boolean;
}

export interface FamilyInvite {
  id: string;
  patient_id: string;
  email: string;
  role: FamilyRole;
  expires_at: string;
  status: 'pending' | 'accepted' | 'withdrawn' | 'expired';
}

export interface FamilyOverview {
  records: FamilyRecord[];
  members: FamilyMember[];
  invites: FamilyInvite[];
}

/** GET /api/family/invites/{token}/ (public): only what the invitation page needs. */
export interface FamilyInvitePreview {
  inviter_first_name: string;
  patient_first_name: string;
  role: FamilyRole;
  expires_at: string;
}

/**
 * Event: a dependant was added to or removed from a household. documents maps the dependant's
 * uploads to the holder's plan (the Family plan covers the household).
 */
export class HouseholdChangedEvent {
  @NonEmptyString(128)
  patient_id!: string;

  /** The account holder whose plan covers the dependant; null when the dependant was removed. */
  @IsOptional()
  @IsString()
  holder_id!: string | null;

  @IsString()
  first_name!: string;
}

export interface FamilyRpc {
  [FAMILY_SUBJECTS.overview]: RpcShape<Record<string, never>, FamilyOverview>;
  [FAMILY_SUBJECTS.addDependant]: RpcShape<AddDependantDto, FamilyRecord>;
  [FAMILY_SUBJECTS.updateMember]: RpcShape<UpdateFamilyMemberDto, FamilyMember>;
  [FAMILY_SUBJECTS.removeMember]: RpcShape<RemoveFamilyMemberDto, FamilyRemovalReply>;
  [FAMILY_SUBJECTS.invite]: RpcShape<CreateFamilyInviteDto, FamilyInvite>;
  [FAMILY_SUBJECTS.withdrawInvite]: RpcShape<FamilyInviteIdDto, FamilyInvite>;
  [FAMILY_SUBJECTS.previewInvite]: RpcShape<FamilyInviteTokenDto, FamilyInvitePreview>;
  [FAMILY_SUBJECTS.acceptInvite]: RpcShape<FamilyInviteTokenDto, FamilyRecord>;
  [FAMILY_SERVICE_SUBJECTS.access]: RpcShape<FamilyAccessDto, FamilyAccessReply>;
  [FAMILY_SERVICE_SUBJECTS.names]: RpcShape<FamilyNamesDto, FamilyNamesReply>;
}
