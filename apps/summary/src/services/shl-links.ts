// A share link as a SMART Health Link: its `shlink:/` payload and what its QR code encodes. The
// protocol pieces are in @medfolio/clinical (shl); this file only knows where our routes live.
import { encodeShlink, newShlKey, shlFlags, shlManifestTag } from '@medfolio/clinical';
import type { ShareLink } from '../entities';

export { newShlKey };

/** The manifest's route (the gateway's POST /api/summary/shl/): secrets in the query, never in a logged path. */
export const SHL_MANIFEST_PATH = '/api/summary/shl/';
/** The file locations' route (GET /api/summary/shl/file/). */
export const SHL_FILE_PATH = '/api/summary/shl/file/';

const base = (publicBaseUrl: string): string => publicBaseUrl.replace(/\/$/, '');

export function manifestUrlOf(shlKey: string, shareId: string, publicBaseUrl: string): string {
  const query = new URLSearchParams({ user: shareId, tag: shlManifestTag(shlKey, shareId) });
  return `${base(publicBaseUrl)}${SHL_MANIFEST_PATH}?${query.toString()}`;
}

/** The link's `shlink:/…` when it is an SHL, else null. */
export function shlinkOf(
  link: Pick<ShareLink, 'shlKey' | 'passcodeHash' | 'expiresAt' | 'label'>,
  shareId: string,
  publicBaseUrl: string,
): string | null {
  if (!link.shlKey) return null;
  return encodeShlink({
    url: manifestUrlOf(link.shlKey, shareId, publicBaseUrl),
    key: link.shlKey,
    ...(link.expiresAt ? { exp: Math.floor(link.expiresAt.getTime() / 1000) } : {}),
    flag: shlFlags({ hasPasscode: link.passcodeHash !== null, expiresAt: link.expiresAt }),
    label: link.label,
  });
}

/** The summary page's URL, with the SHL after '#' when the link is one: a camera opens the page, an SHL app reads the Bundle. */
export function qrTextOf(
  link: Pick<ShareLink, 'shlKey' | 'passcodeHash' | 'expiresAt' | 'label'>,
  shareId: string,
  publicBaseUrl: string,
): string {
  const page = `${base(publicBaseUrl)}/summary/${shareId}`;
  const shl = shlinkOf(link, shareId, publicBaseUrl);
  return shl ? `${page}#${shl}` : page;
}
