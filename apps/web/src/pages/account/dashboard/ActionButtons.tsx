import { useId, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { useClientConfigGetQuery } from '../../../api/api';
import { errorMessage } from '../../../api/errors';
import { useShareLinksDefaultQuery } from '../../../api/sharing';
import { SUMMARY_POLL_MS, useSummaryGetQuery, type SummaryStatus } from '../../../api/summary';
import { passFilename, useGoogleSaveUrl, usePassUrl } from '../../../api/wallet';
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

/**
 * 'Your QR Code': the QR of the patient's default share link (made on first use), drawn in the page;
 * Download QR saves it as a PNG.
 */
function QrDialog({ userId, open, onClose }: { userId: string; open: boolean; onClose: () => void }) {
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const { data: defaultLink, error } = useShareLinksDefaultQuery(undefined, { skip: !open });
  const link = defaultLink?.qr_text;

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
        onClose();
      }}
      actions={
        <Button onClick={() => void download()} loading={saving} disabled={!link}>
          Download QR
        </Button>
      }
    >
      <div className="flex flex-col items-center gap-3">
        {link ? (
          <>
            <QrCode value={link} size={QR_SIZE} label="QR code of your summary link" />
            <p className="text-center text-sm text-slate-700">
              Scanning it opens the summary you confirmed: <span className="break-all font-medium text-slate-900">{link}</span>
            </p>
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
};

/** The summary's state beside View Summary, from the summary page's own call (polled while it is being built). */
function SummaryBadge({ userId, id }: { userId: string; id: string }) {
  const [processing, setProcessing] = useState(false);
  const { data } = useSummaryGetQuery({ user: userId }, { pollingInterval: processing ? SUMMARY_POLL_MS : 0 });
  if ((data?.status === 'processing') !== processing) setProcessing(data?.status === 'processing');
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
 * button. Save to Google Wallet, when the server offers it, opens Google's Save page.
 */
function WalletActions({ userId }: { userId: string | null }) {
  const [pass, setPass] = useState<PassState>({ state: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [googleBusy, setGoogleBusy] = useState(false);
  const passUrl = usePassUrl();
  const googleUrl = useGoogleSaveUrl();
  const { data: clientConfig } = useClientConfigGetQuery();
  const errorId = useId();

  async function generate() {
    if (!userId) return;
    setPass({ state: 'loading' });
    setError(null);
    try {
      const { url } = await passUrl();
      saveUrl(url, passFilename(userId));
      setPass({ state: 'ready', url, at: Date.now() });
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
        <button
          type="button"
          disabled={!userId || pass.state === 'loading'}
          aria-busy={pass.state === 'loading'}
          aria-describedby={error ? errorId : undefined}
          onClick={() => void generate()}
          className={`${actionClass} bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-400`}
        >
          <Icon name="wallet" />
          {pass.state === 'loading' ? 'Generating…' : 'Generate Apple Wallet Pass'}
        </button>
      )}
      {clientConfig?.google_wallet && (
        <button
          type="button"
          disabled={!userId || googleBusy}
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

/** View Summary: opens the default share link (what a doctor holding the QR code sees). */
function ViewSummaryLink({ userId, badgeId }: { userId: string; badgeId: string }) {
  const { data: defaultLink } = useShareLinksDefaultQuery();
  return (
    <Link
      to={defaultLink ? `/summary/${encodeURIComponent(defaultLink.share_id)}` : `/summary/${encodeURIComponent(userId)}`}
      aria-describedby={badgeId}
      className={`${actionClass} border border-brand-700 bg-white text-brand-800 hover:bg-brand-50`}
    >
      <Icon name="summary" />
      View Summary
    </Link>
  );
}

/**
 * The three actions of the dashboard: QR Code (the default share link's QR), Generate Apple Wallet
 * Pass (the signed pass, then an 'Apple Wallet Pass' link) and View Summary (the default link),
 * and the way to the share panel.
 */
export function ActionButtons({ userId }: { userId: string | null }) {
  const [qrOpen, setQrOpen] = useState(false);
  const headingId = useId();
  const badgeId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Share your records
      </h2>
      <div className="mt-4 flex flex-col gap-3">
        <button type="button" disabled={!userId} onClick={() => setQrOpen(true)} className={`${actionClass} bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400`}>
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
      {userId && (
        <p className="mt-3 text-center text-sm">
          <Link to="/share" className="font-semibold text-brand-800 underline underline-offset-2">
            Share links
          </Link>{' '}
          <span className="text-slate-700">· review your summary at </span>
          <Link to={`/summary/${encodeURIComponent(userId)}`} className="font-semibold text-brand-800 underline underline-offset-2">
            My summary
          </Link>
        </p>
      )}
      {userId && <QrDialog userId={userId} open={qrOpen} onClose={() => setQrOpen(false)} />}
    </section>
  );
}
