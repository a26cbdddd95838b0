import { api } from './api';
import type { ShareLinkItem } from '@medfolio/contracts';

/*
 * Share links on the generated endpoints: the owner's list and changes (each one is in the
 * access history), the default link of the dashboard's QR code (made when first asked for), and the passcode
 * of a passcode link.
 */

export type ShareLink = ShareLinkItem;

const sharingApi = api.enhanceEndpoints({
  endpoints: {
    shareLinksList: { providesTags: ['sharing'] },
    shareLinksDefault: { providesTags: ['sharing'] },
    shareLinksCreate: { invalidatesTags: ['sharing', 'history'] },
    shareLinksUpdate: { invalidatesTags: ['sharing', 'history'] },
    shareLinksRevoke: { invalidatesTags: ['sharing', 'history'] },
    // A view token opens the summary: nothing else to reload.
    summaryUnlock: { invalidatesTags: [] },
  },
});

export const {
  useShareLinksListQuery,
  useShareLinksDefaultQuery,
  useShareLinksCreateMutation,
  useShareLinksUpdateMutation,
  useShareLinksRevokeMutation,
  useSummaryUnlockMutation,
} = sharingApi;

/** "Active", "Expired", "Revoked" or "Locked": what a link does now. */
export function linkState(link: ShareLink, now: Date = new Date()): 'active' | 'expired' | 'revoked' | 'locked' {
  if (link.revoked_at) return 'revoked';
  if (link.expires_at && new Date(link.expires_at).getTime() <= now.getTime()) return 'expired';
  if (link.locked) return 'locked';
  return 'active';
}

/** The expiry presets of the share panel, in days; 'date' takes the date picker's day (end of that day). */
export const EXPIRY_PRESETS = [
  { value: 'never', label: 'Never' },
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'date', label: 'On a date' },
] as const;
export type ExpiryChoice = (typeof EXPIRY_PRESETS)[number]['value'];

/**
 * What the expiry field shows for a link that exists: its own expiry as a date (local calendar day),
 * or "Never" only when it has none, so pressing Set expiry unchanged keeps what the link has.
 */
export function expiryChoiceOf(expiresAt: string | null): { choice: ExpiryChoice; date: string } {
  if (!expiresAt) return { choice: 'never', date: '' };
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) return { choice: 'never', date: '' };
  const pad = (n: number) => String(n).padStart(2, '0');
  return { choice: 'date', date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}` };
}

/** The expiry an owner chose, as the API takes it (ISO), or null for none; undefined when the date is missing or past. */
export function expiryFrom(choice: ExpiryChoice, date: string, now: Date = new Date()): string | null | undefined {
  if (choice === 'never') return null;
  if (choice === 'date') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!match) return undefined;
    const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
    return end.getTime() > now.getTime() ? end.toISOString() : undefined;
  }
  return new Date(now.getTime() + Number(choice) * 24 * 3600 * 1000).toISOString();
}
