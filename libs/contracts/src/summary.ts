import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Min } from 'class-validator';
import type { NoPayload, RpcShape } from './rpc-map';
import type { TrendSeries } from './trends';

/**
 * The summary calls and its event. The gateway's /api/summary/ routes are thin: each is
 * one request/reply call with the caller identity; the summary service decides everything.
 */
export const SUMMARY_SUBJECTS = {
  /** Request/reply: SummaryQueryDto, reply SummaryItem[] (one item). */
  get: 'summary.summary.get',
  /** Request/reply, caller = the owner: no payload → SummaryStatusReply (no health data; polled by the dashboard). */
  status: 'summary.summary.status',
  /** Request/reply: HideFactDto, reply SummaryItem. */
  hide: 'summary.fact.hide',
  /** Request/reply: EditFactDto, reply SummaryItem. */
  edit: 'summary.fact.edit',
  /** Request/reply: AddFactDto, reply SummaryItem. */
  add: 'summary.fact.add',
  /** Request/reply: FactIdDto, reply SummaryItem (only facts the patient added). */
  remove: 'summary.fact.remove',
  /** Request/reply: ConfirmSummaryDto, reply SummaryItem. */
  confirm: 'summary.summary.confirm',
  /** Event (SUMMARY stream): SummaryBuiltEvent. */
  built: 'summary.summary.built.v1',
} as const;

export const SUMMARY_SECTION_KEYS = ['current_conditions', 'past_history', 'medications', 'allergies', 'additional'] as const;
export type SummarySectionKey = (typeof SUMMARY_SECTION_KEYS)[number];

export const SUMMARY_MESSAGES = {
  notFound: 'Summary not found.',
  factNotFound: 'Fact not found.',
  changed: 'The summary changed; review the new version.',
  onlyAdded: 'Only facts you added can be removed; hide the others instead.',
} as const;

/**
 * GET /api/summary/?user={patientId or shareId}. The owner's own id shows the owner their summary;
 * a share id shows anyone the shared (confirmed) summary; anything else answers 404, so no format
 * rule beyond a length.
 */
export class SummaryQueryDto {
  @IsString({ message: 'user must be the id of a patient.' })
  @Length(1, 128, { message: 'user must be the id of a patient.' })
  user!: string;

  /** A passcode link's view token (POST /api/summary/unlock/). */
  @IsOptional()
  @IsString({ message: 'view_token is not valid.' })
  @Length(1, 400, { message: 'view_token is not valid.' })
  view_token?: string;
}

const FACT_ID = { message: 'fact_id must be the id of a fact in your summary.' };

export class FactIdDto {
  @IsUUID('all', FACT_ID)
  fact_id!: string;
}

/** POST /api/summary/facts/{factId}/hide/ body. */
export class HideFactBodyDto {
  @IsBoolean({ message: 'hidden must be true or false.' })
  hidden!: boolean;
}

export class HideFactDto extends HideFactBodyDto {
  @IsUUID('all', FACT_ID)
  fact_id!: string;
}

const FACT_TEXT = { message: 'text must be 1 to 300 characters.' };

/** PUT /api/summary/facts/{factId}/ body. */
export class EditFactBodyDto {
  @IsString(FACT_TEXT)
  @Length(1, 300, FACT_TEXT)
  @Matches(/\S/, FACT_TEXT)
  text!: string;
}

export class EditFactDto extends EditFactBodyDto {
  @IsUUID('all', FACT_ID)
  fact_id!: string;
}

/** POST /api/summary/facts/ body. */
export class AddFactDto {
  @IsIn(SUMMARY_SECTION_KEYS, { message: `section must be one of: ${SUMMARY_SECTION_KEYS.join(', ')}.` })
  section!: SummarySectionKey;

  @IsString(FACT_TEXT)
  @Length(1, 300, FACT_TEXT)
  @Matches(/\S/, FACT_TEXT)
  text!: string;
}

/** POST /api/summary/confirm/ body. */
export class ConfirmSummaryDto {
  @Type(() => Number)
  @IsInt({ message: 'version must be a whole number.' })
  @Min(1, { message: 'version must be a whole number.' })
  version!: number;
}

/**
 * empty: nothing to summarise yet; processing: documents are being read or the summary rebuilt; ready:
 * built. unreviewed: only through a share link, when the patient has not confirmed any version yet:
 * the answer then has no sections (nothing is claimed, not even "not recorded").
 */
export type SummaryStatus = 'empty' | 'processing' | 'ready' | 'unreviewed';
export type SummaryFactCategory =
  | 'condition'
  | 'medication'
  | 'allergy'
  | 'immunization'
  | 'procedure'
  | 'result'
  | 'vital'
  | 'care_team'
  | 'note';

export interface SummarySource {
  document_id: string;
  filename: string;
  page: number | null;
  quote: string;
  /** Where the document was fetched from, when it was ("Springfield General Hospital via MyChart, fetched 27 Nov 2026"; connections, a clinic's SMART Health Link); absent for uploads. */
  fetched_from?: string;
}

export interface SummaryFact {
  /** Stable across rebuilds where the fact is the same (section + normalised key), so patient edits survive. */
  id: string;
  text: string;
  category: SummaryFactCategory;
  status: 'active' | 'resolved' | 'stopped' | 'unknown' | null;
  onset: string | null;
  end: string | null;
  code: { system: string; code: string; display?: string } | null;
  details: Record<string, string> | null;
  certainty: 'confirmed' | 'possible' | null;
  hidden: boolean;
  edited: boolean;
  added_by_patient: boolean;
  sources: SummarySource[];
}

export interface SummarySectionItem {
  key: SummarySectionKey;
  title: string;
  state: 'facts' | 'none_known' | 'not_recorded';
  facts: SummaryFact[];
  none_known: { text: string; sources: SummarySource[] } | null;
}

export type SummaryDocumentState = 'pending' | 'processing' | 'read' | 'unreadable';

export interface SummaryDocumentItem {
  document_id: string;
  filename: string;
  state: SummaryDocumentState;
  problems: string[];
}

/** One item of GET /api/summary/ (the list has one) and the reply of every review call. */
export interface SummaryItem {
  summary: string;
  status: SummaryStatus;
  /** The latest built version; 0 when nothing was built yet. */
  version: number;
  confirmed_version: number | null;
  /** ISO 8601. */
  updated_at: string;
  sections: SummarySectionItem[];
  documents: SummaryDocumentItem[];
  /**
   * Set when the summary is served through a share link (to anyone holding it): the link's label and
   * expiry. Such an answer is the latest CONFIRMED version only, with no documents, no sources and no
   * review state (hidden facts left out, edited/added marks cleared); before the patient confirmed
   * any version, status `unreviewed` and no sections.
   */
  shared?: {
    label: string;
    expires_at: string | null;
    /** The link's "show my name and date of birth" switch; absent in answers from before it. */
    show_patient_identity?: boolean;
  };
  /**
   * Whose summary it is: the account's current name and date of birth, read from identity
   * at the time of the read. Set for the owner and for a link that shows them (the default); null when
   * the link hides them (an anonymous summary) or identity could not answer just now; absent in the
   * owner's review answers.
   */
  patient?: SummaryPatient | null;
  /**
   * Through a share link that includes trends: the chosen series (values, dates, ranges, flags; no
   * sources, as the shared facts have none). Absent otherwise.
   */
  trends?: TrendSeries[];
}

/** The patient a summary belongs to, as the shared page, its PDF and IPS name them. */
export interface SummaryPatient {
  /** Given and family name joined, as the account spells them. */
  name: string;
  given: string;
  family: string;
  /** YYYY-MM-DD, or null when the account has none. */
  birth_date: string | null;
}

/**
 * GET /api/summary/status/: where the owner's summary stands, without any of its content (the
 * dashboard's badge polls it while a build is pending). `documents` are the documents the summary
 * service knows of and how far each was read.
 */
export interface SummaryStatusReply {
  status: SummaryStatus;
  version: number;
  confirmed_version: number | null;
  documents: { document_id: string; state: SummaryDocumentState }[];
}

/** summary.summary.built.v1: a new version exists (no health data in the event). */
export interface SummaryBuiltEvent {
  user_id: string;
  version: number;
}

/** This service's part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface SummaryRpc {
  [SUMMARY_SUBJECTS.get]: RpcShape<SummaryQueryDto, SummaryItem[]>;
  [SUMMARY_SUBJECTS.status]: RpcShape<NoPayload, SummaryStatusReply>;
  [SUMMARY_SUBJECTS.hide]: RpcShape<HideFactDto, SummaryItem>;
  [SUMMARY_SUBJECTS.edit]: RpcShape<EditFactDto, SummaryItem>;
  [SUMMARY_SUBJECTS.add]: RpcShape<AddFactDto, SummaryItem>;
  [SUMMARY_SUBJECTS.remove]: RpcShape<FactIdDto, SummaryItem>;
  [SUMMARY_SUBJECTS.confirm]: RpcShape<ConfirmSummaryDto, SummaryItem>;
}
