import { api } from './api';

import type { SummaryItem, SummarySectionItem, SummarySectionKey, SummaryStatus } from '@medfolio/contracts';

/*
 * The summary calls (spec section 7, GET /api/summary/?user=…, and the review calls) on the
 * generated endpoints, with the contracts' own types (type-only imports: erased from the bundle).
 */

export type {
  SummaryDocumentItem as SummaryDocument,
  SummaryFact,
  SummaryItem,
  SummaryPatient,
  SummarySectionItem as SummarySection,
  SummarySource as FactSource,
  SummaryStatus,
} from '@medfolio/contracts';
export type SectionKey = SummarySectionKey;
export type SectionState = SummarySectionItem['state'];

/** The summary's FHIR IPS Bundle (GET /api/summary/fhir/), fetched only when asked for (each fetch is a view of a link). */
export const useShareFormatsFhirQuery = api.endpoints.shareFormatsFhir.useQuery;
export const useLazyShareFormatsFhirQuery = api.endpoints.shareFormatsFhir.useLazyQuery;

/** While the summary is being built, the page asks again this often (as the dashboard does for thumbnails). */
export const SUMMARY_POLL_MS = 2000;
/** How long the dashboard waits for the summary to learn of a new document before it stops asking. */
export const SUMMARY_WAIT_MS = 120_000;

/**
 * Whether the summary is still to catch up with the documents: being built, or a listed document it
 * has not heard of yet (just uploaded: the summary service learns of it by an event a moment later).
 */
export function summaryPending(
  summary: { status: SummaryStatus; documents: readonly { document_id: string }[] } | undefined,
  documents: readonly { id: string }[] | undefined,
): boolean {
  if (!summary) return false;
  if (summary.status === 'processing') return true;
  const known = new Set(summary.documents.map((d) => d.document_id));
  return (documents ?? []).some((d) => !known.has(d.id));
}

// The generated endpoints (generated.ts) with what the schema cannot say: each review call is in the
// access history and reloads the summary. The hooks below keep the page's shapes: one item instead of
// the list, and plain arguments instead of the generated request bodies.
const summaryApi = api.enhanceEndpoints({
  endpoints: {
    summaryHide: { invalidatesTags: ['summary', 'history'] },
    summaryEdit: { invalidatesTags: ['summary', 'history'] },
    summaryAdd: { invalidatesTags: ['summary', 'history'] },
    summaryRemove: { invalidatesTags: ['summary', 'history'] },
    // A 409 (a newer version exists) also reloads, so the patient reviews what is there now.
    summaryConfirm: { invalidatesTags: ['summary', 'history'] },
  },
});

type GetOptions = Parameters<typeof summaryApi.useSummaryGetQuery>[1];

/**
 * GET /api/summary/status/: where the owner's summary stands (status, versions, the documents it
 * knows of), without its content: what the dashboard's badge polls while a build is pending.
 */
export const useSummaryStatusQuery = summaryApi.useSummaryStatusQuery;

/** GET /api/summary/?user=…: the list's first item is the summary (the seed's shape). */
export function useSummaryGetQuery(arg: { user: string; view_token?: string }, options?: Omit<NonNullable<GetOptions>, 'selectFromResult'>) {
  const result = summaryApi.useSummaryGetQuery(arg, options);
  const data: SummaryItem | undefined = result.data?.[0];
  return { ...result, data };
}

export function useSummaryHideFactMutation() {
  const [trigger, state] = summaryApi.useSummaryHideMutation();
  return [({ factId, hidden }: { factId: string; hidden: boolean }) => trigger({ factId, body: { hidden } }), state] as const;
}

export function useSummaryEditFactMutation() {
  const [trigger, state] = summaryApi.useSummaryEditMutation();
  return [({ factId, text }: { factId: string; text: string }) => trigger({ factId, body: { text } }), state] as const;
}

export function useSummaryAddFactMutation() {
  const [trigger, state] = summaryApi.useSummaryAddMutation();
  return [(body: { section: SectionKey; text: string }) => trigger({ body: body }), state] as const;
}

export function useSummaryRemoveFactMutation() {
  const [trigger, state] = summaryApi.useSummaryRemoveMutation();
  return [({ factId }: { factId: string }) => trigger({ factId }), state] as const;
}

export function useSummaryConfirmMutation() {
  const [trigger, state] = summaryApi.useSummaryConfirmMutation();
  return [({ version }: { version: number }) => trigger({ body: { version } }), state] as const;
}
