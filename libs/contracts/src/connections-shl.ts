import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { RpcShape } from './rpc-map';

/**
 * The connections service's receiver of SMART Health Links (HL7 SMART Health Cards and Links IG,
 * STU1) that a clinic gives the patient: the `shlink:/` (or a viewer URL carrying one after '#'), the
 * manifest (passcode when the link asks for one), the files decrypted (JWE dir/A256GCM with the
 * link's key), SMART Health Cards checked against their issuer's JWKS, and each FHIR Bundle added to
 * the patient's documents.
 */
export const CONNECTIONS_SHL_SUBJECTS = {
  /** Caller = the patient: ReceiveShlDto → ReceiveShlReply. */
  receive: 'connections.shl.receive',
} as const;

/** What the receiver answers, word for word (the web app shows them as they are). */
export const SHL_RECEIVE_MESSAGES = {
  notShl: 'This is not a SMART Health Link. Paste the whole link (it starts with shlink:/ or contains #shlink:/).',
  expired: 'This link has expired. Ask the clinic for a new one.',
  passcodeNeeded: 'This link needs a passcode.',
  wrongPasscode: 'Wrong passcode.',
  noLongerValid: 'This link is no longer valid. Ask the clinic for a new one.',
  undecryptable: "The link's contents could not be opened: it may be damaged.",
  tooLarge: "The link's contents are larger than Medfolio can receive.",
  unreachable: "The clinic's link server could not be reached. Please try again later.",
  refusedAddress: 'This link points to an address Medfolio does not contact (only public https addresses).',
  unexpectedAnswer: "The clinic's link server did not answer as SMART Health Links do.",
  busy: "The clinic's link server asked us to slow down. Please try again in a minute.",
  nothingToImport: 'The link holds nothing Medfolio can add to your documents (no FHIR Bundle or SMART Health Card).',
  notConfigured: 'Receiving links is not set up on this server.',
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class ReceiveShlDto {
  /** `shlink:/…`, or a viewer URL with `#shlink:/…` (what the clinic's QR code holds). */
  @MaxLength(8192, { message: 'shlink is too long to be a SMART Health Link' })
  @IsNotEmpty({ message: 'shlink is required' })
  @IsString({ message: 'shlink is required' })
  @Transform(trim)
  shlink!: string;

  /** The passcode the clinic gave with a link flagged P. */
  @IsOptional()
  @MaxLength(200, { message: 'passcode must be at most 200 characters' })
  @IsString({ message: 'passcode must be text' })
  passcode?: string;
}

/** One file of the link, now a document of the patient's. */
export interface ReceivedShlItem {
  /** The new document's id (GET /api/documents/{id}/). */
  document_id: string;
  /** Its name in the documents list ("SMART Health Link from Springfield Clinic, received 27 Nov 2026.json"). */
  name: string;
  /** 'fhir-bundle': a FHIR Bundle the link held; 'health-card': the Bundle of a SMART Health Card (a signed credential). */
  kind: 'fhir-bundle' | 'health-card';
  /**
   * Health cards only: the issuer's URL when its signature was checked against the key the issuer
   * publishes (`<iss>/.well-known/jwks.json`); null when it could not be checked (not reachable, no
   * such key, a bad signature). Absent for plain bundles (they carry no signature).
   */
  verified_issuer?: string | null;
  /** Health cards only: the issuer the card names (`iss`), verified or not. */
  issuer?: string;
}

export interface ReceiveShlReply {
  /** The link's label (what the clinic called it), or null. */
  label: string | null;
  imported: ReceivedShlItem[];
}

/** This part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface ConnectionsShlRpc {
  [CONNECTIONS_SHL_SUBJECTS.receive]: RpcShape<ReceiveShlDto, ReceiveShlReply>;
}
