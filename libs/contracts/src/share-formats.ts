import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import type { RpcShape } from './rpc-map';
import { stacked } from './rules';
import { SHARING_MESSAGES } from './sharing';
import { SummaryQueryDto } from './summary';

/**
 * The summary in other formats: a FHIR R4 International Patient Summary Bundle, a
 * printable PDF, and SMART Health Links (a manifest and its encrypted file). Each is read the way
 * the summary is (GET /api/summary/?user=): the owner's own id gives the owner's latest summary; a
 * share id gives the shared (confirmed) summary to anyone holding it, passcode respected, every
 * access audited and counted as a view of the link.
 */
export const SHARE_FORMAT_SUBJECTS = {
  /** Request/reply: SummaryQueryDto → FhirBundle (application/fhir+json). */
  fhir: 'summary.format.fhir',
  /** Request/reply: SummaryPdfQueryDto → SummaryPdfReply. */
  pdf: 'summary.format.pdf',
  /** Request/reply: ShlManifestDto → ShlManifestReply (a wrong passcode: UNAUTHENTICATED with remaining_attempts). */
  shlManifest: 'summary.shl.manifest',
  /** Request/reply: ShlFileDto → ShlFileReply (a compact JWE). */
  shlFile: 'summary.shl.file',
} as const;

export const PDF_PAPER_SIZES = ['a4', 'letter'] as const;
export type PdfPaperSize = (typeof PDF_PAPER_SIZES)[number];

/** A FHIR resource as JSON (the summary service builds it with @medplum/fhirtypes' types). */
export type FhirBundle = { resourceType: 'Bundle'; type: string } & Record<string, unknown>;

/** GET /api/summary/pdf/?user=&size=. */
export class SummaryPdfQueryDto extends SummaryQueryDto {
  @IsOptional()
  @IsIn(PDF_PAPER_SIZES, { message: 'size must be a4 or letter.' })
  size?: PdfPaperSize;
}

export interface SummaryPdfReply {
  filename: string;
  /** The PDF, base64. */
  content_base64: string;
}

const TAG = { message: SHARING_MESSAGES.notValid };

/** The manifest URL's query: the share id and the tag that binds the URL to the link's SHL key. */
export class ShlLinkDto {
  @IsString(TAG)
  @Length(1, 128, TAG)
  user!: string;

  @IsString(TAG)
  @Matches(/^[A-Za-z0-9_-]{43}$/, TAG)
  tag!: string;
}

/** The manifest request's `recipient`: who asks, 1 to 200 characters. */
function ShlRecipient(): PropertyDecorator {
  return stacked(IsString({ message: 'recipient must be 1 to 200 characters.' }), Length(1, 200, { message: 'recipient must be 1 to 200 characters.' }));
}

/** The manifest request's optional `passcode` (for a link with flag P): 1 to 64 characters. */
function ShlPasscode(): PropertyDecorator {
  return stacked(IsOptional(), IsString({ message: 'passcode must be 1 to 64 characters.' }), Length(1, 64, { message: 'passcode must be 1 to 64 characters.' }));
}

/** POST {manifest url}: the SHL spec's manifest request. */
export class ShlManifestBodyDto {
  @ShlRecipient()
  recipient!: string;

  @ShlPasscode()
  passcode?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'embeddedLengthMax must be a whole number.' })
  @Min(0, { message: 'embeddedLengthMax must be a whole number.' })
  @Max(100_000_000, { message: 'embeddedLengthMax must be a whole number.' })
  embeddedLengthMax?: number;
}

export class ShlManifestDto extends ShlLinkDto {
  @ShlRecipient()
  recipient!: string;

  @ShlPasscode()
  passcode?: string;

  @IsOptional()
  @IsInt({ message: 'embeddedLengthMax must be a whole number.' })
  @Min(0, { message: 'embeddedLengthMax must be a whole number.' })
  embeddedLengthMax?: number;
}

/** GET {file location}: the short-lived token the manifest gave. */
export class ShlFileDto extends ShlLinkDto {
  @IsString(TAG)
  @Matches(/^\d{1,12}\.[A-Za-z0-9_-]{43}$/, TAG)
  token!: string;
}

/** The SHL spec's manifest (files: the IPS Bundle, embedded or at a location). */
export interface ShlManifestReply {
  status: 'finalized' | 'can-change' | 'no-longer-valid';
  files: { contentType: 'application/fhir+json'; embedded?: string; location?: string; lastUpdated?: string }[];
}

export interface ShlFileReply {
  /** A compact JWE (alg dir, enc A256GCM, cty application/fhir+json). */
  jwe: string;
}

export interface ShareFormatsRpc {
  [SHARE_FORMAT_SUBJECTS.fhir]: RpcShape<SummaryQueryDto, FhirBundle>;
  [SHARE_FORMAT_SUBJECTS.pdf]: RpcShape<SummaryPdfQueryDto, SummaryPdfReply>;
  [SHARE_FORMAT_SUBJECTS.shlManifest]: RpcShape<ShlManifestDto, ShlManifestReply>;
  [SHARE_FORMAT_SUBJECTS.shlFile]: RpcShape<ShlFileDto, ShlFileReply>;
}
