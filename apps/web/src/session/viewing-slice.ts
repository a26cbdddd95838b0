import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from './session-slice';

/**
 * Whose record the signed-in user is looking at (issue 30, "Viewing: Leo"): null while it is their
 * own. Kept per browser tab (sessionStorage): two tabs may look at two people, and closing the tab
 * forgets it. Every patient call then carries `X-Patient-Id` (empty-api.ts), and changing it
 * empties the whole RTK Query cache (store.ts), so nothing of one person shows under another's name.
 */
export type RecordRole = 'owner' | 'guardian' | 'manage' | 'view';

export interface ViewedRecord {
  patient_id: string;
  first_name: string;
  role: RecordRole;
}

export interface ViewingState {
  /** Someone else's record, or null for the user's own. */
  record: ViewedRecord | null;
  /** Set when access to the viewed record ended (revoked, expired): whose it was, to say so once. */
  ended: string | null;
}

const STORAGE_KEY = 'medfolio.viewing';

function stored(): ViewedRecord | null {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<ViewedRecord>;
    if (typeof value.patient_id === 'string' && typeof value.first_name === 'string' && typeof value.role === 'string') {
      return { patient_id: value.patient_id, first_name: value.first_name, role: value.role as RecordRole };
    }
  } catch {
    // Storage off or a damaged value: the user's own record.
  }
  return null;
}

function store(record: ViewedRecord | null): void {
  try {
    if (typeof sessionStorage === 'undefined') return;
    if (record) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(record));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage off: the choice lasts until the page reloads.
  }
}

export const initialViewingState = (): ViewingState => ({ record: stored(), ended: null });

export const viewingSlice = createSlice({
  name: 'viewing',
  initialState: initialViewingState,
  reducers: {
    /** Another person's record (null: the user's own). The store's listener then empties the cache. */
    viewingChanged(state, action: PayloadAction<ViewedRecord | null>) {
      state.record = action.payload;
      state.ended = null;
      store(action.payload);
    },
    /** The viewed record's grant is gone (revoked, expired, removed): back to the user's own, saying so. */
    viewingEnded(state) {
      state.ended = state.record?.first_name ?? null;
      state.record = null;
      store(null);
    },
    endedNoticeSeen(state) {
      state.ended = null;
    },
    /** The viewed record's role or name as the family list now says (no cache reset: same person). */
    viewingRefreshed(state, action: PayloadAction<ViewedRecord>) {
      if (state.record?.patient_id !== action.payload.patient_id) return;
      state.record = action.payload;
      store(action.payload);
    },
  },
  extraReducers: (builder) => {
    // Signing out (or a session that ended) forgets whose record this tab was showing.
    builder.addCase(signedOut, (state) => {
      state.record = null;
      state.ended = null;
      store(null);
    });
  },
});

export const { viewingChanged, viewingEnded, viewingRefreshed, endedNoticeSeen } = viewingSlice.actions;

/** A patient call was refused while viewing someone else: the store's listener re-reads the grants. */
export const viewedAccessRefused = createAction('viewing/accessRefused');

/**
 * The routes that act on a record and may name another person's (the route table's `onBehalf`,
 * libs/contracts/src/routes): only they carry X-Patient-Id. Any other call is about the signed-in
 * account itself (sign-in, profile, plans, family admin...) and the gateway refuses it with the
 * header. viewing-slice.spec.ts checks this list against the route table.
 */
export const ON_BEHALF_PATHS: readonly string[] = [
  '/api/upload/',
  '/api/get-document-download-link/{documentId}/',
  '/api/history/',
  '/api/summary/',
  '/api/summary/status/',
  '/api/summary/confirm/',
  '/api/summary/facts/',
  '/api/summary/facts/{factId}/',
  '/api/summary/facts/{factId}/hide/',
  '/api/summary/fhir/',
  '/api/summary/pdf/',
  '/api/share-links/',
  '/api/share-links/default/',
  '/api/share-links/{linkId}/',
  '/api/share-links/{linkId}/revoke/',
  '/api/trends/',
  '/api/trends/export.csv',
  '/api/wallet/pass/',
  '/api/wallet/status/',
  '/api/wallet/settings/',
  '/api/wallet/google/',
  '/api/get-pass-url/',
  '/api/connections/',
  '/api/connections/endpoints/',
  '/api/connections/callback/',
  '/api/connections/shl/',
  '/api/connections/{connectionId}/',
  '/api/connections/{connectionId}/sync/',
];

const onBehalf = ON_BEHALF_PATHS.map((template) => new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`));

/** The X-Patient-Id to send with a call to `url`, or undefined (the user's own record, or an account call). */
export function patientHeaderFor(url: string, record: ViewedRecord | null): string | undefined {
  if (!record) return undefined;
  const path = (/^https?:/.test(url) ? new URL(url).pathname : url).split('?')[0] ?? '';
  return onBehalf.some((pattern) => pattern.test(path)) ? record.patient_id : undefined;
}

/** What the viewer may do on the record they look at: 'view' reads only. */
export function canManage(record: ViewedRecord | null): boolean {
  return !record || record.role !== 'view';
}
