import { useId, useState } from 'react';
import { Link } from 'react-router';
import { SUMMARY_POLL_MS, useSummaryGetQuery, type SummaryStatus } from '../../../api/summary';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { QrCode } from '../../../components/SiteQrCode';
import { qrPng, saveBlob } from './download';
import { Icon } from './icons';

/** The QR image in the modal and the saved PNG: 200x200 (spec section 9). */
export const QR_SIZE = 200;

/** The public summary link of a patient, on this site. */
export function summaryLink(userId: string): string {
  return `${window.location.origin}/summary/${encodeURIComponent(userId)}`;
}

/** The saved QR image's name: the brand prefix and _{userId}_qr.png (spec section 9). */
export function qrFilename(userId: string): string {
  return `medfolio_${userId}_qr.png`;
}

const actionClass =
  'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors';

/** 'Your QR Code': the QR of the public summary link, drawn in the page; Download QR saves it as a PNG. */
function QrDialog({ userId, open, onClose }: { userId: string; open: boolean; onClose: () => void }) {
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const link = summaryLink(userId);

  async function download() {
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
        <Button onClick={() => void download()} loading={saving}>
          Download QR
        </Button>
      }
    >
      <div className="flex flex-col items-center gap-3">
        <QrCode value={link} size={QR_SIZE} label="QR code of your summary link" />
        <p className="text-center text-sm text-slate-700">
          Scanning it opens your summary: <span className="break-all font-medium text-slate-900">{link}</span>
        </p>
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

/**
 * The three actions of the dashboard: QR Code (the summary link's QR), Generate Apple Wallet Pass
 * (shown, not yet available: the wallet feature wires it) and View Summary (/summary/{userId}).
 */
export function ActionButtons({ userId }: { userId: string | null }) {
  const [qrOpen, setQrOpen] = useState(false);
  const walletNoteId = useId();
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
        <div>
          <button type="button" disabled aria-describedby={walletNoteId} className={`${actionClass} cursor-not-allowed border border-slate-300 bg-slate-100 text-slate-600`}>
            <Icon name="wallet" />
            Generate Apple Wallet Pass
          </button>
          <p id={walletNoteId} className="mt-1 text-center text-xs text-slate-700">
            Coming with the wallet feature.
          </p>
        </div>
        {userId ? (
          <div className="flex items-center gap-2">
            <Link
              to={`/summary/${encodeURIComponent(userId)}`}
              aria-describedby={badgeId}
              className={`${actionClass} border border-brand-700 bg-white text-brand-800 hover:bg-brand-50`}
            >
              <Icon name="summary" />
              View Summary
            </Link>
            <SummaryBadge userId={userId} id={badgeId} />
          </div>
        ) : (
          <button type="button" disabled className={`${actionClass} border border-slate-300 bg-white text-slate-600`}>
            <Icon name="summary" />
            View Summary
          </button>
        )}
      </div>
      {userId && <QrDialog userId={userId} open={qrOpen} onClose={() => setQrOpen(false)} />}
    </section>
  );
}
