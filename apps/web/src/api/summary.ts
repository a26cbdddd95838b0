import { api } from './api';

/*
 * The summary calls (spec section 7, GET /api/summary/?user=…, and the review calls of issue 14),
 * written by hand to the fixed contract until the gateway serves them. Once it does, run
 * `npm run api:generate` and replace these with the generated endpoints (keeping the tags below).
 * The web app cannot import the server's contracts, so the types mirror the contract here.
 */

export type SectionKey = 'current_conditions' | 'past_history' | 'medications' | 'allergies' | 'additional';
export type SummaryStatus = 'empty' | 'processing' | 'ready';
export type SectionState = 'facts' | 'none_known' | 'not_recorded';

export interface FactSource {
  document_id: string;
  filename: string;
  page: number | null;
  quote?: string | null;
}

export interface SummaryFact {
  id: string;
  text: string;
  category:
    'condition' | 'medication' | 'allergy' | 'immunization' | 'procedure' | 'result' | 'vital' | 'care_team' | 'note';
  status: 'active' | 'resolved' | 'stopped' | 'unknown' | null;
  onset: string | null;
  end: string | null;
  code: { system: string; code: string; display?: string | null } | null;
  details: Record<string, string> | null;
  certainty: 'confirmed' | 'possible' | null;
  hidden: boolean;
  edited: boolean;
  added_by_patient: boolean;
  sources: FactSource[];
}

export interface SummarySection {
  key: SectionKey;
  title: string;
  state: SectionState;
  facts: SummaryFact[];
  none_known: { text: string; sources: FactSource[] } | null;
}

export interface SummaryDocument {
  document_id: string;
  filename: string;
  state: 'pending' | 'processing' | 'read' | 'unreadable';
  problems: string[];
}

/** One item of GET /api/summary/'s list: the seed's `summary` text plus the structured data. */
export interface SummaryItem {
  summary: string;
  status: SummaryStatus;
  version: number;
  confirmed_version: number | null;
  updated_at: string | null;
  sections: SummarySection[];
  documents: SummaryDocument[];
}

/** While the summary is being built, the page asks again this often (as the dashboard does for thumbnails). */
export const SUMMARY_POLL_MS = 2000;

const summaryApi = api.enhanceEndpoints({ addTagTypes: ['summary'] }).injectEndpoints({
  endpoints: (build) => ({
    summaryGet: build.query<SummaryItem, { user: string }>({
      query: ({ user }) => ({ url: '/api/summary/', params: { user } }),
      // The seed's shape is a list whose first item is the summary.
      transformResponse: (response: SummaryItem[]) => {
        const item = response[0];
        if (!item) throw new Error('The summary answer was empty.');
        return item;
      },
      providesTags: ['summary'],
    }),
    summaryHideFact: build.mutation<SummaryItem[], { factId: string; hidden: boolean }>({
      query: ({ factId, hidden }) => ({
        url: `/api/summary/facts/${encodeURIComponent(factId)}/hide/`,
        method: 'POST',
        body: { hidden },
      }),
      invalidatesTags: ['summary', 'history'],
    }),
    summaryEditFact: build.mutation<SummaryItem[], { factId: string; text: string }>({
      query: ({ factId, text }) => ({
        url: `/api/summary/facts/${encodeURIComponent(factId)}/`,
        method: 'PUT',
        body: { text },
      }),
      invalidatesTags: ['summary', 'history'],
    }),
    summaryAddFact: build.mutation<SummaryItem[], { section: SectionKey; text: string }>({
      query: (body) => ({ url: '/api/summary/facts/', method: 'POST', body }),
      invalidatesTags: ['summary', 'history'],
    }),
    summaryRemoveFact: build.mutation<SummaryItem[], { factId: string }>({
      query: ({ factId }) => ({ url: `/api/summary/facts/${encodeURIComponent(factId)}/`, method: 'DELETE' }),
      invalidatesTags: ['summary', 'history'],
    }),
    summaryConfirm: build.mutation<SummaryItem[], { version: number }>({
      query: (body) => ({ url: '/api/summary/confirm/', method: 'POST', body }),
      // A 409 (a newer version exists) also reloads, so the patient reviews what is there now.
      invalidatesTags: ['summary', 'history'],
    }),
  }),
});

export const {
  useSummaryGetQuery,
  useSummaryHideFactMutation,
  useSummaryEditFactMutation,
  useSummaryAddFactMutation,
  useSummaryRemoveFactMutation,
  useSummaryConfirmMutation,
} = summaryApi;
