import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Matches, Min } from 'class-validator';
import type { RpcShape } from './rpc-map';
import { NonEmptyString, stacked } from './rules';

/**
 * Share links: the summary service owns them, beside the summary they share. This file is
 * the part other services build on: the wallet asks for a link of its own (`ensure` with purpose
 * 'wallet', so revoking it cuts off only the pass) and follows `changed`; the providers' access
 * requests resolve a share id to its owner (`resolve`). The owner's screens and the public routes
 * add their own subjects beside these.
 */
export const SHARING_SUBJECTS = {
  /**
   * Request/reply, caller = the owner: EnsureShareLinkDto → ShareLinkItem. The caller's active link
   * for that purpose, made when first asked for (the default link for the dashboard's QR code, made
   * to expire 30 days later; or the wallet pass's own link, without expiry, asked for when a pass is issued).
   */
  ensure: 'summary.share-link.ensure',
  /**
   * Request/reply, service to service: ResolveShareLinkDto → ResolvedShareLink. An active link's
   * owner and flags; a revoked, expired, locked or unknown id answers not-found (no hint which).
   * A passcode link needs its view token (from `unlock`), as its summary does: without a valid one
   * the answer is FORBIDDEN "This link needs a passcode." Does not count as a view.
   */
  resolve: 'summary.share-link.resolve',
  /** Event (SUMMARY stream): ShareLinkChangedEvent, whenever a link is made, changed, revoked or replaced. */
  changed: 'summary.share-link.changed.v1',
  /** Request/reply, caller = the owner: NoPayload → ShareLinkItem[] (newest first, revoked ones too). */
  list: 'summary.share-link.list',
  /** Request/reply, caller = the owner: CreateShareLinkDto → ShareLinkItem (purpose 'custom'). */
  create: 'summary.share-link.create',
  /** Request/reply, caller = the owner: UpdateShareLinkDto → ShareLinkItem. */
  update: 'summary.share-link.update',
  /** Request/reply, caller = the owner: ShareLinkIdDto → ShareLinkItem (revoked at once). */
  revoke: 'summary.share-link.revoke',
  /**
   * Request/reply, anyone: UnlockShareLinkDto → ShareLinkUnlockReply. The passcode of a passcode link,
   * answered with a short-lived view token for GET /api/summary/?user={shareId}&view_token=...
   * A wrong passcode answers UNAUTHENTICATED with the attempts left; after the limit the link locks.
   */
  unlock: 'summary.share-link.unlock',
} as const;

export const SHARE_LINK_PURPOSES = ['default', 'custom', 'wallet'] as const;
/** 'default': the dashboard's link; 'custom': made on the share panel; 'wallet': a pass's own link. */
export type ShareLinkPurpose = (typeof SHARE_LINK_PURPOSES)[number];

export const SHARING_MESSAGES = {
  /** Every unusable id, whatever the reason (revoked, expired, locked, wrong, guessed). */
  notValid: 'This link is not valid.',
  /** A passcode link opened without (or with an expired) view token. */
  passcodeRequired: 'This link needs a passcode.',
  wrongPasscode: (left: number) => `Wrong passcode. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  linkNotFound: 'Share link not found.',
  expiryInPast: 'expires_at must be a future date, at most a year ahead.',
} as const;

/** A view token that does not have the shape of one (a wrong or expired one is "needs a passcode"). */
export const VIEW_TOKEN_MESSAGE = 'view_token is not valid.';

/** Wrong passcodes a link takes before it locks (the owner unlocks it by setting a new passcode). */
export const SHARE_PASSCODE_ATTEMPTS = 5;

/** A share id: ≥ 128 bits from a CSPRNG, base64url (22 characters for 128 bits; up to 64 accepted). */
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** A share id field: one that does not have the shape of one answers "This link is not valid.". */
export function ShareId(): PropertyDecorator {
  return stacked(IsString({ message: SHARING_MESSAGES.notValid }), Matches(SHARE_ID_PATTERN, { message: SHARING_MESSAGES.notValid }));
}

/** An optional view token field (a passcode link's, from POST /api/summary/unlock/): 1 to 400 characters. */
export function OptionalViewToken(): PropertyDecorator {
  return stacked(IsOptional(), IsString({ message: VIEW_TOKEN_MESSAGE }), Length(1, 400, { message: VIEW_TOKEN_MESSAGE }));
}

export class EnsureShareLinkDto {
  @IsIn(['default', 'wallet'], { message: 'purpose must be default or wallet.' })
  purpose!: Extract<ShareLinkPurpose, 'default' | 'wallet'>;

  /** Used only when the link is made now; the owner can rename it later. */
  @IsOptional()
  @IsString({ message: 'label must be 1 to 60 characters.' })
  @Length(1, 60, { message: 'label must be 1 to 60 characters.' })
  label?: string;
}

export class ResolveShareLinkDto {
  @ShareId()
  share_id!: string;

  /** A passcode link's view token (POST /api/summary/unlock/); required for such a link. */
  @OptionalViewToken()
  view_token?: string;
}

const LABEL = { message: 'label must be 1 to 60 characters.' };
const PASSCODE = { message: 'passcode must be 4 to 64 characters.' };
const TRENDS = { message: 'trends must be a list of at most 30 series keys from GET /api/trends/.' };
const EXPIRES = { message: 'expires_at must be an ISO 8601 date and time, or null.' };

/** An optional true or false. */
function OptionalFlag(options: { message: string }): PropertyDecorator {
  return stacked(IsOptional(), IsBoolean(options));
}

/** A share link's label: 1 to 60 characters, not only blanks. */
function ShareLabel(): PropertyDecorator {
  return stacked(IsString(LABEL), Length(1, 60, LABEL), Matches(/\S/, LABEL));
}

/** What a share link's owner sets besides its label, the same on create and on update. */
class ShareLinkSettingsDto {
  /** ISO 8601; absent or null: no expiry (on update: null removes it). */
  @IsOptional()
  @IsISO8601({ strict: true }, EXPIRES)
  expires_at?: string | null;

  /** Absent or null: no passcode (on update: a new one also unlocks a locked link; null removes it). Stored hashed (argon2id). */
  @IsOptional()
  @IsString(PASSCODE)
  @Length(4, 64, PASSCODE)
  passcode?: string | null;

  @OptionalFlag({ message: 'notify_on_view must be true or false.' })
  notify_on_view?: boolean;

  @OptionalFlag({ message: 'providers_may_see_documents must be true or false.' })
  providers_may_see_documents?: boolean;

  /** Also a SMART Health Link (the QR then carries the `shlink:/` after '#'); false turns it off (a new key next time). */
  @OptionalFlag({ message: 'shl must be true or false.' })
  shl?: boolean;

  /**
   * The patient's name and date of birth on everything the link hands out (page, PDF, IPS, SHL).
   * Absent on create: true (a clinician must be able to tell whose record it is); false makes an
   * anonymous summary.
   */
  @OptionalFlag({ message: 'show_patient_identity must be true or false.' })
  show_patient_identity?: boolean;

  /**
   * Health trends the link shares (page and PDF): series keys from GET /api/trends/ (`key`), at
   * most 30; each must be one of the patient's series. Absent on create: none; [] on update: none.
   */
  @IsOptional()
  @IsArray(TRENDS)
  @ArrayMaxSize(30, TRENDS)
  @IsString({ each: true, ...TRENDS })
  @Length(1, 200, { each: true, ...TRENDS })
  trends?: string[];
}

/** POST /api/share-links/ body. */
export class CreateShareLinkDto extends ShareLinkSettingsDto {
  @ShareLabel()
  label!: string;
}

/** PATCH /api/share-links/{linkId}/ body: only the fields sent change; null clears expiry or passcode. */
export class UpdateShareLinkBodyDto extends ShareLinkSettingsDto {
  @IsOptional()
  @ShareLabel()
  label?: string;
}

export class ShareLinkIdDto {
  @IsUUID('all', { message: SHARING_MESSAGES.linkNotFound })
  link_id!: string;
}

export class UpdateShareLinkDto extends UpdateShareLinkBodyDto {
  @IsUUID('all', { message: SHARING_MESSAGES.linkNotFound })
  link_id!: string;
}

/** POST /api/summary/unlock/ body. */
export class UnlockShareLinkDto {
  @IsString({ message: SHARING_MESSAGES.notValid })
  @Length(1, 128, { message: SHARING_MESSAGES.notValid })
  user!: string;

  @IsString(PASSCODE)
  @Length(1, 64, PASSCODE)
  passcode!: string;
}

export interface ShareLinkUnlockReply {
  /** Pass as `view_token` to GET /api/summary/?user={shareId}. Good for this link only. */
  view_token: string;
  /** ISO 8601. */
  expires_at: string;
}

/** A link as its owner sees it (never shown to anyone else: `share_id` is the secret). */
export interface ShareLinkItem {
  /** The link's own id (uuid): safe to log and to use in owner routes. */
  id: string;
  /** The secret in the URL. */
  share_id: string;
  /** `${PUBLIC_BASE_URL}/summary/${share_id}`. */
  url: string;
  label: string;
  purpose: ShareLinkPurpose;
  /** Bumped on every change to the link (label, expiry, passcode, revocation): the wallet's pass version. */
  version: number;
  /** ISO 8601. */
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  has_passcode: boolean;
  /** Too many wrong passcodes: the link no longer opens until the owner resets its passcode. */
  locked: boolean;
  notify_on_view: boolean;
  providers_may_see_documents: boolean;
  /**
   * The patient's name and date of birth shown on what the link hands out (default true). Always
   * set by the summary service; optional only for stand-ins written before the field existed.
   */
  show_patient_identity?: boolean;
  /** The trends' series keys the link shares ([] none). Always set by the summary service. */
  trends?: string[];
  view_count: number;
  last_viewed_at: string | null;
  /** The SMART Health Link (`shlink:/…`) when the link is also an SHL, otherwise null. */
  shl: string | null;
  /** What the link's QR code encodes: `url`, with `#` + `shl` after it when the link is an SHL. */
  qr_text: string;
}

/** What another service may learn about an active link from its share id. */
export interface ResolvedShareLink {
  link_id: string;
  owner_id: string;
  label: string;
  purpose: ShareLinkPurpose;
  providers_may_see_documents: boolean;
  expires_at: string | null;
}

/** A share link's states, as summary.share-link.changed.v1 reports them. */
export const SHARE_LINK_STATES = ['active', 'revoked', 'replaced', 'expired'] as const;

/** summary.share-link.changed.v1 (no secret and no health data in it). */
export class ShareLinkChangedEvent {
  @IsUUID('all', { message: 'link_id must be a link id' })
  link_id!: string;

  @NonEmptyString(128)
  owner_id!: string;

  @IsIn(SHARE_LINK_PURPOSES, { message: `purpose must be one of: ${SHARE_LINK_PURPOSES.join(', ')}` })
  purpose!: ShareLinkPurpose;

  /** 'replaced': the owner made a new link for the same purpose (e.g. a new wallet link). */
  @IsIn(SHARE_LINK_STATES, { message: `state must be one of: ${SHARE_LINK_STATES.join(', ')}` })
  state!: (typeof SHARE_LINK_STATES)[number];

  @IsInt()
  @Min(0)
  version!: number;

  /**
   * The link's "verified providers may see documents" setting after the change (documents ends the
   * grants made through the link when it is off, or the link is no longer active). Absent only in
   * events written before the field existed.
   */
  @IsOptional()
  @IsBoolean()
  providers_may_see_documents?: boolean;

  /** ISO 8601 or null: the link's expiry after the change (grants made through it end by then). Absent as above. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date and time' })
  expires_at?: string | null;

  /** ISO 8601. */
  @IsISO8601({ strict: true }, { message: 'changed_at must be an ISO 8601 date and time' })
  changed_at!: string;
}

/** This part of the request/reply map (rpc-map.ts `RpcMap` extends it). */
export interface SharingRpc {
  [SHARING_SUBJECTS.ensure]: RpcShape<EnsureShareLinkDto, ShareLinkItem>;
  [SHARING_SUBJECTS.resolve]: RpcShape<ResolveShareLinkDto, ResolvedShareLink>;
  [SHARING_SUBJECTS.list]: RpcShape<Record<string, never>, ShareLinkItem[]>;
  [SHARING_SUBJECTS.create]: RpcShape<CreateShareLinkDto, ShareLinkItem>;
  [SHARING_SUBJECTS.update]: RpcShape<UpdateShareLinkDto, ShareLinkItem>;
  [SHARING_SUBJECTS.revoke]: RpcShape<ShareLinkIdDto, ShareLinkItem>;
  [SHARING_SUBJECTS.unlock]: RpcShape<UnlockShareLinkDto, ShareLinkUnlockReply>;
}
