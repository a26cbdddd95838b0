import { useViewOnlyReason } from '../../../components/Viewing';
import { useEffect, useId, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { useClientConfigGetQuery, useDocumentsListQuery } from '../../../api/api';
import { errorMessage } from '../../../api/errors';
import { EXPIRY_PRESETS, expiryFrom, useShareLinksDefaultQuery, useShareLinksUpdateMutation, type ExpiryChoice } from '../../../api/sharing';
import { SUMMARY_POLL_MS, SUMMARY_WAIT_MS, summaryPending, useSummaryStatusQuery, type SummaryStatus } from '../../../api/summary';
import { passFilename, useGoogleSaveUrl, usePassUrl, useWalletPassStatusQuery } from '../../../api/wallet';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { QrCode } from '../../../components/SiteQrCode';
import { qrPng, saveBlob, saveUrl } from './download';
import { Icon } from './icons';

/** The QR image in the modal and the saved PNG: 200x200 (spec section 9). */
export const QR_SIZE = 200;

/** The saved QR image's name: the brand prefix and _{userId}_qr.png (spec section 9). */
export function qrFilename(userId: string): string {
  return `medfolio_${userId}_qr.png`;
}

const actionClass =
  'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors';

/** A date as the dashboard shows it (medium date). */
function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);
}

/** The expiries the QR dialog offers (the share panel also offers a chosen date). */
const QR_EXPIRIES = EXPIRY_PRESETS.filter((p) => p.value !== 'date');

/**
 * 'Your QR Code': the QR of the patient's default share link, drawn in the page; Download QR saves
 * it as a PNG. The link is made the first time the patient opens this (never before),
 * lives 30 days unless changed here or on the share panel, and the dialog says when it ends.
 */
function QrDialog({ userId, open, onClose }: { userId: string; open: boolean; onClose: () => void }) {
  // The summary's status (the badge's cached answer): before the patient confirmed any version, the
  // dialog leads to the review first, and makes the link only when asked to anyway.
  const { data: summary, error: summaryError } = useSummaryStatusQuery(undefined, { skip: !open });
  const summaryKnown = summary !== undefined || summaryError !== undefined;
  const unreviewed = summary !== undefined && summary.confirmed_version === null;
  const [anyway, setAnyway] = useState(false);
  const holding = unreviewed && !anyway;
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [expiry, setExpiry] = useState<ExpiryChoice>('30');
  const [expiryMessage, setExpiryMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const { data: defaultLink, error } = useShareLinksDefaultQuery(undefined, { skip: !open || holding || !summaryKnown });
  const [update, updating] = useShareLinksUpdateMutation();
  const expiryId = useId();
  const link = defaultLink?.qr_text;

  async function changeExpiry() {
    if (!defaultLink) return;
    setExpiryMessage(null);
    try {
      const changed = await update({ linkId: defaultLink.id, body: { expires_at: expiryFrom(expiry, '') ?? null } }).unwrap();
      setExpiryMessage({ tone: 'ok', text: changed.expires_at ? `The link now expires on ${day(changed.expires_at)}.` : 'The link now never expires.' });
    } catch (failure) {
      setExpiryMessage({ tone: 'error', text: errorMessage(failure, 'The expiry could not be changed. Please try again.') });
    }
  }

  async function download() {
    if (!link) return;
    setSaving(true);
    setFailed(false);
    try {
      saveBlob(await qrPng(link, QR_SIZE), qrFilename(userId));
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      open={open}
      title="Your QR Code"
      closeLabel="Close"
      onClose={() => {
        setFailed(false);
        setExpiryMessage(null);
        onClose();
      }}
      actions={
        <Button onClick={() => void download()} loading={saving} disabled={!link || holding}>
          Download QR
        </Button>
      }
    >
      <div className="flex flex-col items-center gap-3">
        {unreviewed && (
          <div role="status" data-testid="qr-review-first" className="w-full rounded-lg border-l-4 border-amber-700 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            <p className="font-semibold">You have not reviewed your summary yet.</p>
            <p className="mt-1">
              Until you confirm it, anyone scanning this code only reads that you have not reviewed it: none of your records
              are shown. Check it first (hide what a doctor should not see, correct what is wrong), then confirm.
            </p>
            <p className="mt-2">
              <Link to={`/summary/${encodeURIComponent(userId)}?review=1`} className="font-semibold text-brand-800 underline underline-offset-2">
                Review your summary first
              </Link>
            </p>
            {holding && (
              <Button variant="secondary" className="mt-2" onClick={() => setAnyway(true)}>
                Show the QR code anyway
              </Button>
            )}
          </div>
        )}
        {holding ? null : link ? (
          <>
            <QrCode value={link} size={QR_SIZE} label="QR code of your summary link" />
            <p className="text-center text-sm text-slate-700">
              Scanning it opens the summary you confirmed{unreviewed ? ' (none yet)' : ''}: <span className="break-all font-medium text-slate-900">{link}</span>
            </p>
            <p className="text-center text-sm font-medium text-slate-900" data-testid="qr-expiry">
              {defaultLink?.expires_at ? `This link expires on ${day(defaultLink.expires_at)}.` : 'This link never expires.'}
            </p>
            <div className="flex items-end gap-2">
              <div>
                <label htmlFor={expiryId} className="block text-sm font-medium text-slate-800">
                  Change the expiry
                </label>
                <select
                  id={expiryId}
                  value={expiry}
                  onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}
                  className="block rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900"
                >
                  {QR_EXPIRIES.map((p) => (
                    <option key={p.value} value={p.value}>
                      {p.value === 'never' ? 'Never' : `${p.label} from now`}
                    </option>
                  ))}
                </select>
              </div>
              <Button variant="secondary" loading={updating.isLoading} onClick={() => void changeExpiry()}>
                Set expiry
              </Button>
            </div>
            {expiryMessage && (
              <p role={expiryMessage.tone === 'error' ? 'alert' : 'status'} className={`text-center text-sm font-medium ${expiryMessage.tone === 'error' ? 'text-red-700' : 'text-brand-900'}`}>
                {expiryMessage.text}
              </p>
            )}
            <p className="text-center text-sm text-slate-700">
              <Link to="/share" className="font-semibold text-brand-800 underline underline-offset-2">
                Manage your links
              </Link>{' '}
              (a link per doctor, passcodes, expiry, revoke).
            </p>
          </>
        ) : error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {errorMessage(error, 'Your link could not be loaded. Please try again.')}
          </p>
        ) : (
          <svg role="img" aria-label="Loading your QR code" width={QR_SIZE} height={QR_SIZE} className="block rounded bg-slate-200" />
        )}
        {failed && (
          <p role="alert" className="text-sm font-medium text-red-700">
            The QR image could not be saved. Please try again.
          </p>
        )}
      </div>
    </Dialog>
  );
}

const SUMMARY_BADGES: Record<SummaryStatus, { label: string; style: string }> = {
  processing: { label: 'Processing…', style: 'bg-amber-50 text-amber-900 ring-amber-700' },
  ready: { label: 'Ready', style: 'bg-brand-50 text-brand-900 ring-brand-600' },
  empty: { label: 'Not yet', style: 'bg-slate-100 text-slate-800 ring-slate-400' },
  // Only share links answer it; listed so every status has a badge.
  unreviewed: { label: 'Not reviewed', style: 'bg-amber-50 text-amber-900 ring-amber-700' },
};

/**
 * The summary's state beside View Summary, from GET /api/summary/status/ (no content, not the whole
 * summary). It follows the summary live: asked again every 2 s while it is being built, or while the documents list (the
 * dashboard's own, cached) has a document the summary has not heard of yet (just uploaded), for at
 * most SUMMARY_WAIT_MS in that second case; otherwise it asks nothing.
 */
function SummaryBadge({ userId, id }: { userId: string; id: string }) {
  const [polling, setPolling] = useState(false);
  const [waitingSince, setWaitingSince] = useState<number | null>(null);
  const { data: documents } = useDocumentsListQuery();
  const { data, fulfilledTimeStamp } = useSummaryStatusQuery(undefined, { pollingInterval: polling ? SUMMARY_POLL_MS : 0, skip: !userId });
  // After every answer (even an unchanged one), so the window ends.
  useEffect(() => {
    if (!summaryPending(data, documents)) {
      setWaitingSince(null);
      setPolling(false);
    } else if (data?.status === 'processing') {
      setPolling(true);
    } else {
      const since = waitingSince ?? Date.now();
      if (waitingSince === null) setWaitingSince(since);
      setPolling(Date.now() - since < SUMMARY_WAIT_MS);
    }
  }, [data, documents, fulfilledTimeStamp, waitingSince]);
  const badge = data ? SUMMARY_BADGES[data.status] : undefined;
  // Always there (empty until known), so the link's aria-describedby never points at nothing.
  return (
    <span id={id} className={badge ? `inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badge.style}` : 'sr-only'}>
      {badge && (
        <>
          <span className="sr-only">Summary: </span>
          {badge.label}
        </>
      )}
    </span>
  );
}

/** A pass link older than this is fetched again on click (links live 5 minutes). */
const PASS_LINK_FRESH_MS = 4 * 60 * 1000;

type PassState = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; url: string; at: number };

/**
 * Generate Apple Wallet Pass: asks for the pass's download link (loading), starts the download
 * (`medfolio_{userId}.pkpass`) and becomes an 'Apple Wallet Pass' link; a failure is shown under the
 * button. When the last pass was retired (its link revoked) the card says so and the
 * button issues a new one. Save to Google Wallet, when the server offers it, opens Google's Save page.
 */
function WalletActions({ userId }: { userId: string | null }) {
  const [pass, setPass] = useState<PassState>({ state: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [googleBusy, setGoogleBusy] = useState(false);
  const passUrl = usePassUrl();
  const googleUrl = useGoogleSaveUrl();
  const { data: clientConfig } = useClientConfigGetQuery();
  const { data: status, refetch: refetchStatus } = useWalletPassStatusQuery(undefined, { skip: !userId });
  const retired = status?.state === 'retired' && pass.state !== 'ready';
  // Making a pass makes the record's default share link: not for a view-only caregiver.
  const viewOnly = useViewOnlyReason();
  const errorId = useId();
  const retiredId = useId();

  async function generate() {
    if (!userId) return;
    setPass({ state: 'loading' });
    setError(null);
    try {
      const { url } = await passUrl();
      saveUrl(url, passFilename(userId));
      setPass({ state: 'ready', url, at: Date.now() });
      if (status?.state !== 'active') void refetchStatus();
    } catch (failure) {
      setPass({ state: 'idle' });
      setError(errorMessage(failure, 'The wallet pass could not be made. Please try again.'));
    }
  }

  function openStale(event: MouseEvent<HTMLAnchorElement>) {
    if (pass.state === 'ready' && Date.now() - pass.at > PASS_LINK_FRESH_MS) {
      event.preventDefault();
      void generate();
    }
  }

  async function google() {
    setGoogleBusy(true);
    setError(null);
    try {
      const { url } = await googleUrl();
      saveUrl(url, '');
    } catch (failure) {
      setError(errorMessage(failure, 'The Google Wallet link could not be made. Please try again.'));
    } finally {
      setGoogleBusy(false);
    }
  }

  return (
    <div>
      {pass.state === 'ready' && userId ? (
        <a href={pass.url} download={passFilename(userId)} onClick={openStale} className={`${actionClass} bg-slate-900 text-white hover:bg-slate-800`}>
          <Icon name="wallet" />
          Apple Wallet Pass
        </a>
      ) : (
        <>
          {retired && (
            <p id={retiredId} role="status" className="mb-2 rounded-lg border-l-4 border-amber-700 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Your wallet pass was retired{status.retired_at ? ` on ${day(status.retired_at)}` : ''}: its link was revoked, so its QR code no longer
              opens your summary and the card no longer updates. Issue a new pass below, then delete the old card from Wallet.
            </p>
          )}
          <button
            type="button"
            disabled={!userId || pass.state === 'loading' || viewOnly !== null}
            title={viewOnly ?? undefined}
            aria-busy={pass.state === 'loading'}
            aria-describedby={[error ? errorId : '', retired ? retiredId : ''].filter(Boolean).join(' ') || undefined}
            onClick={() => void generate()}
            className={`${actionClass} bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-400`}
          >
            <Icon name="wallet" />
            {pass.state === 'loading' ? 'Generating…' : retired ? 'Issue a new Apple Wallet Pass' : 'Generate Apple Wallet Pass'}
          </button>
        </>
      )}
      {clientConfig?.google_wallet && (
        <button
          type="button"
          disabled={!userId || googleBusy || viewOnly !== null}
          title={viewOnly ?? undefined}
          aria-busy={googleBusy}
          onClick={() => void google()}
          className={`${actionClass} mt-2 border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 disabled:text-slate-500`}
        >
          <Icon name="wallet" />
          {googleBusy ? 'Opening Google Wallet…' : 'Save to Google Wallet'}
        </button>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-center text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * View Summary: the owner's own summary at /summary/{userId} (spec), which only the signed-in owner
 * can open. Never a share link: that address would keep showing the summary to whoever uses the
 * browser after sign-out, and loading the dashboard makes no link.
 */
function ViewSummaryLink({ userId, badgeId }: { userId: string; badgeId: string }) {
  return (
    <Link
      to={`/summary/${encodeURIComponent(userId)}`}
      aria-describedby={badgeId}
      className={`${actionClass} border border-brand-700 bg-white text-brand-800 hover:bg-brand-50`}
    >
      <Icon name="summary" />
      View Summary
    </Link>
  );
}

/**
 * The three actions of the dashboard: QR Code (the default share link's QR, the link made when first
 * asked for), Generate Apple Wallet Pass (the signed pass, then an 'Apple Wallet Pass' link) and
 * View Summary (the owner's own summary page), and the way to the share panel.
 */
export function ActionButtons({ userId }: { userId: string | null }) {
  const [qrOpen, setQrOpen] = useState(false);
  // The QR code's link is made when first asked for: a view-only caregiver cannot make one.
  const viewOnly = useViewOnlyReason();
  const headingId = useId();
  const badgeId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Share your records
      </h2>
      <div className="mt-4 flex flex-col gap-3">
        <button type="button" disabled={!userId || viewOnly !== null} title={viewOnly ?? undefined} onClick={() => setQrOpen(true)} className={`${actionClass} bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400`}>
          <Icon name="qr" />
          QR Code
        </button>
        <WalletActions userId={userId} />
        {userId ? (
          <div className="flex items-center gap-2">
            <ViewSummaryLink userId={userId} badgeId={badgeId} />
            <SummaryBadge userId={userId} id={badgeId} />
          </div>
        ) : (
          <button type="button" disabled className={`${actionClass} border border-slate-300 bg-white text-slate-600`}>
            <Icon name="summary" />
            View Summary
          </button>
        )}
      </div>
      {viewOnly && <p className="mt-3 text-sm text-slate-700">{viewOnly} The QR code and share links are off.</p>}
      {userId && !viewOnly && (
        <p className="mt-3 text-center text-sm">
          <Link to="/share" className="font-semibold text-brand-800 underline underline-offset-2">
            Share links
          </Link>{' '}
          <span className="text-slate-700">· a link per doctor, passcodes, expiry, revoke</span>
        </p>
      )}
      {userId && <QrDialog userId={userId} open={qrOpen} onClose={() => setQrOpen(false)} />}
    </section>
  );
}
