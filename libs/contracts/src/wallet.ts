import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import type { NoPayload, RpcShape } from './rpc-map';

/**
 * The wallet service: the patient's Apple Wallet pass (signed .pkpass, kept current
 * through Apple's PassKit web service and APNs) and the Google Wallet "Save" link. The pass carries
 * a share link of its own (SHARING_SUBJECTS.ensure with purpose 'wallet') and no health data.
 * Request/reply subjects: `wallet.<entity>.<verb>`.
 */
export const WALLET_SUBJECTS = {
  /**
   * Caller = the patient: no payload → PassUrlReply (a short-lived signed download link of the .pkpass).
   * When the previous pass was retired (its link revoked), this issues a new pass: a new serial number,
   * token and link.
   */
  passUrl: 'wallet.pass.url',
  /** Caller = the patient: no payload → PassStatus (whether a pass was issued, and whether it was retired). Makes nothing. */
  passStatus: 'wallet.pass.status',
  /** Caller = the patient: no payload → PassView (what the pass shows, for /wallet-preview). */
  passView: 'wallet.pass.view',
  /** Caller = the patient: PassSettingsDto → PassView. */
  updateSettings: 'wallet.pass.settings',
  /** Caller = the patient: no payload → PassUrlReply (the 'Save to Google Wallet' link); UNAVAILABLE when not configured. */
  googleSaveUrl: 'wallet.google.save-url',
  /** Anyone: no payload → WalletClientConfig (which wallets this deployment offers). */
  clientConfig: 'wallet.client-config',
  /** PassKit web service (Apple's "Wallet web service" reference), caller = the device: token in the payload. */
  passkitRegister: 'wallet.passkit.register',
  passkitUnregister: 'wallet.passkit.unregister',
  passkitUpdated: 'wallet.passkit.updated',
  passkitPass: 'wallet.passkit.pass',
  passkitLog: 'wallet.passkit.log',
} as const;

/** The .pkpass media type (Apple). */
export const PKPASS_CONTENT_TYPE = 'application/vnd.apple.pkpass';
/** The blob keys of signed passes: the gateway passes /api/files/wallet-passes/... to the wallet service. */
export const WALLET_PASS_KEY_PREFIX = 'wallet-passes/';
/** The download's name (spec section 9): the brand prefix and _{userId}.pkpass. */
export function passFilename(userId: string): string {
  return `medfolio_${userId}.pkpass`;
}

export const WALLET_MESSAGES = {
  googleNotConfigured: 'Google Wallet is not available on this server.',
  passUnavailable: 'The wallet pass could not be made right now. Please try again.',
  wrongToken: 'Not authorized for this pass.',
  /** The pass's link was revoked: the pass is retired and its token answers 401 for good. */
  passRetired: 'This pass was retired. Its holder can issue a new one.',
  unknownPass: 'No such pass.',
} as const;

export interface PassUrlReply {
  url: string;
}

/**
 * The patient's wallet pass as the dashboard shows it: 'none' (never issued), 'active', or 'retired'
 * (its link was revoked: its QR code no longer opens anything, it no longer updates, and a new pass
 * must be issued to carry one again).
 */
export interface PassStatus {
  state: 'none' | 'active' | 'retired';
  /** ISO 8601: when the last pass was retired ('retired' only, else null). */
  retired_at: string | null;
}

export class PassSettingsDto {
  /** Show the holder's first name on the pass (off by default). */
  @IsBoolean({ message: 'show_name must be true or false.' })
  show_name!: boolean;
}

/** A label and a value, as on the pass. */
export interface PassField {
  key: string;
  label: string;
  value: string;
}

/** What the pass shows (the same data its pass.json is made from): no health data. */
export interface PassView {
  serial_number: string;
  brand: string;
  description: string;
  /** The holder's first name, or null when the patient keeps it off the pass. */
  holder_name: string | null;
  show_name: boolean;
  /** The QR code's content: the pass's own share link. */
  qr_url: string;
  header_fields: PassField[];
  primary_fields: PassField[];
  secondary_fields: PassField[];
  back_fields: PassField[];
  background_color: string;
  foreground_color: string;
  label_color: string;
  /** ISO 8601: when the pass last changed. */
  updated_at: string;
}

export interface WalletClientConfig {
  apple_wallet: boolean;
  google_wallet: boolean;
}

const DEVICE_ID = /^[A-Za-z0-9._-]{1,128}$/;
const PASS_TYPE_ID = /^[A-Za-z0-9._-]{1,200}$/;
const SERIAL = /^[A-Za-z0-9._-]{1,128}$/;

/** The parts of a PassKit path: one that cannot be ours is unknown. */
const DeviceId = (): PropertyDecorator => Matches(DEVICE_ID, { message: 'Unknown device.' });
const PassTypeId = (): PropertyDecorator => Matches(PASS_TYPE_ID, { message: 'Unknown pass type.' });
const SerialNumber = (): PropertyDecorator => Matches(SERIAL, { message: 'Unknown serial number.' });

/** The parts of a PassKit request path and its `Authorization: ApplePass <token>`. */
export class PassKitPassDto {
  @PassTypeId()
  pass_type_identifier!: string;

  @SerialNumber()
  serial_number!: string;

  /** From `Authorization: ApplePass <token>` (empty when absent: 401). */
  @IsString()
  @MaxLength(200)
  authentication_token!: string;

  /** The If-Modified-Since header, when sent. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  if_modified_since?: string;
}

export class PassKitRegistrationDto extends PassKitPassDto {
  @DeviceId()
  device_library_identifier!: string;

  /** Register only (the body's pushToken). */
  @IsOptional()
  @IsString({ message: 'pushToken is required.' })
  @Length(1, 400, { message: 'pushToken is required.' })
  push_token?: string;
}

export class PassKitUpdatedDto {
  @DeviceId()
  device_library_identifier!: string;

  @PassTypeId()
  pass_type_identifier!: string;

  @IsOptional()
  @Matches(/^\d{1,20}$/, { message: 'passesUpdatedSince must be a tag this server gave.' })
  passes_updated_since?: string;
}

export class PassKitLogDto {
  @IsArray({ message: 'logs must be a list of strings.' })
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  @Type(() => String)
  logs!: string[];
}

export interface PassKitRegisterReply {
  /** 201: newly registered; 200: already registered. */
  status: 200 | 201;
}

/** null (HTTP 204): no pass of the device changed since the tag. */
export type PassKitUpdatedReply = { serialNumbers: string[]; lastUpdated: string } | null;

/** The latest pass: not modified (304), or where its signed bytes are and when they changed. */
export type PassKitPassReply = { not_modified: true; last_modified: string } | { not_modified: false; last_modified: string; url: string };

/** This service's part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface WalletRpc {
  [WALLET_SUBJECTS.passUrl]: RpcShape<NoPayload, PassUrlReply>;
  [WALLET_SUBJECTS.passStatus]: RpcShape<NoPayload, PassStatus>;
  [WALLET_SUBJECTS.passView]: RpcShape<NoPayload, PassView>;
  [WALLET_SUBJECTS.updateSettings]: RpcShape<PassSettingsDto, PassView>;
  [WALLET_SUBJECTS.googleSaveUrl]: RpcShape<NoPayload, PassUrlReply>;
  [WALLET_SUBJECTS.clientConfig]: RpcShape<NoPayload, WalletClientConfig>;
  [WALLET_SUBJECTS.passkitRegister]: RpcShape<PassKitRegistrationDto, PassKitRegisterReply>;
  [WALLET_SUBJECTS.passkitUnregister]: RpcShape<PassKitRegistrationDto, Record<string, never>>;
  [WALLET_SUBJECTS.passkitUpdated]: RpcShape<PassKitUpdatedDto, PassKitUpdatedReply>;
  [WALLET_SUBJECTS.passkitPass]: RpcShape<PassKitPassDto, PassKitPassReply>;
  [WALLET_SUBJECTS.passkitLog]: RpcShape<PassKitLogDto, Record<string, never>>;
}
