import type { PlanId } from './billing';
import type { RpcShape, NoPayload } from './rpc-map';

/**
 * Health trends (issue 31): the patient's lab results and vital signs over time, one series per
 * test (equivalent LOINC codes on one line, values converted to one unit with UCUM), and a timeline
 * of conditions, medicines, procedures and visits. Built by the summary service from the
 * observations it keeps per document. "Advanced analytics" of the Plus and Family plans: other
 * plans get a preview (the first key measure's series, the others' names and counts, no timeline).
 */
export const TRENDS_SUBJECTS = {
  /** Request/reply, caller = the owner: NoPayload → TrendsReply. Audited (`trends.read`). */
  get: 'summary.trends.get',
  /** Request/reply, caller = the owner: NoPayload → TrendsCsvReply (every observation). Audited (`trends.export`). */
  exportCsv: 'summary.trends.export',
} as const;

/**
 * The plans that see every series and the timeline, and whose contact messages are priority: Plus
 * and Family (plan id 'pro', named Family). Other plans see a preview.
 */
export const TRENDS_FULL_PLANS: readonly PlanId[] = ['plus', 'pro'];

/** Where a point (or a timeline event) comes from: the document, its file name and page. */
export interface TrendSource {
  /** The document's id (GET /api/documents/{id}/download/ opens it); null for facts without one. */
  document_id: string | null;
  filename: string | null;
  page: number | null;
  /** The hospital or link the document was fetched from, when it was (connections); null or absent for uploads. */
  fetched_from?: string | null;
}

export type TrendFlag = 'low' | 'high' | 'abnormal' | 'normal';

export interface TrendPoint {
  /** ISO 8601, as partial as the source ("2015-06-22", "2015"); null when the source gave none. */
  date: string | null;
  /** In the series' unit (converted when the source used another). */
  value: number;
  /** As the source gave it. */
  original: { value: number; unit: string | null };
  /** The reference range in the series' unit where it converts, and as the source wrote it. */
  range: { low: number | null; high: number | null; text: string | null } | null;
  flag: TrendFlag | null;
  /** 'source': the record's own interpretation; 'range': computed from the reference range. */
  flag_from: 'source' | 'range' | null;
  /** The interpretation as the source gave it ('H', 'LX', 'Abnormal'...). */
  interpretation: string | null;
  /** Every document that gave this value on this date (the same result from two documents is one point). */
  sources: TrendSource[];
}

export interface TrendCode {
  /** 'LOINC', 'SNOMED CT', or the system's OID/URL when unknown. */
  system: string;
  code: string;
  display?: string;
}

export interface TrendSeries {
  /** A key measure's key ('hba1c', 'ldl', 'systolic', 'glucose'...), or "LOINC:<code>", "<system>:<code>", "name:<name>". */
  key: string;
  /** The name a patient reads. */
  name: string;
  category: 'result' | 'vital';
  /** The display unit as the sources write it; null when none gave one. */
  unit: string | null;
  /** The display unit's UCUM code; null when it is not UCUM. */
  ucum: string | null;
  codes: TrendCode[];
  /** Oldest first, undated last. */
  points: TrendPoint[];
}

export type TimelineKind = 'condition' | 'medication' | 'procedure' | 'visit' | 'allergy';
export type TimelineChange = 'started' | 'changed' | 'stopped' | 'diagnosed' | 'resolved' | 'recorded';

export interface TimelineEvent {
  /** ISO 8601 (partial as the source); null when undated. */
  date: string | null;
  kind: TimelineKind;
  change: TimelineChange;
  title: string;
  detail: string | null;
  sources: TrendSource[];
}

/** A series a preview leaves out: its name and how many points it has. */
export interface LockedSeries {
  key: string;
  name: string;
  points: number;
}

/** GET /api/trends/. */
export interface TrendsReply {
  /** 'full' for Plus and Family; 'preview' otherwise. */
  access: 'full' | 'preview';
  /** Key measures first. In a preview: only the first key measure series with points. */
  series: TrendSeries[];
  /** In a preview: the series left out (names and counts, no values); [] with full access. */
  locked: LockedSeries[];
  /** Newest first. [] in a preview. */
  timeline: TimelineEvent[];
  /** ISO 8601. */
  generated_at: string;
}

/** The CSV export over RPC (the gateway answers it as text/csv). */
export interface TrendsCsvReply {
  filename: string;
  /** RFC 4180 CSV, UTF-8, CRLF line ends, header row first. */
  content: string;
  /** Observations written (rows after the header). */
  rows: number;
}

/** The CSV's columns, in order. */
export const TRENDS_CSV_COLUMNS = [
  'date',
  'test',
  'value',
  'unit',
  'value_in_series_unit',
  'series_unit',
  'low',
  'high',
  'flag',
  'interpretation',
  'code_system',
  'code',
  'document_filename',
  'document_id',
  'page',
] as const;

export interface TrendsRpc {
  [TRENDS_SUBJECTS.get]: RpcShape<NoPayload, TrendsReply>;
  [TRENDS_SUBJECTS.exportCsv]: RpcShape<NoPayload, TrendsCsvReply>;
}
