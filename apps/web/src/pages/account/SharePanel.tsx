import { useViewOnlyReason } from '../../components/Viewing';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errors';
import {
  EXPIRY_PRESETS,
  expiryChoiceOf,
  expiryFrom,
  linkState,
  useShareLinksCreateMutation,
  useShareLinksListQuery,
  useShareLinksRevokeMutation,
  useShareLinksUpdateMutation,
  type ExpiryChoice,
  type ShareLink,
} from '../../api/sharing';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { QrCode } from '../../components/SiteQrCode';
import { TextField } from '../../components/fields';
import { useSession } from '../../session/use-session';
import { qrPng, saveBlob } from './dashboard/download';
import { qrFilename, QR_SIZE } from './dashboard/ActionButtons';
import { TrendsPicker } from '../trends/TrendsPicker';

const heading = 'text-2xl font-bold text-slate-900 sm:text-3xl';
const selectClass = 'block w-full rounded-lg border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900';

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  return <time dateTime={iso}>{text}</time>;
}

const STATE_BADGES = {
  active: { label: 'Active', style: 'bg-brand-50 text-brand-900 ring-brand-600' },
  expired: { label: 'Expired', style: 'bg-slate-100 text-slate-800 ring-slate-400' },
  revoked: { label: 'Revoked', style: 'bg-red-50 text-red-800 ring-red-700' },
  locked: { label: 'Locked', style: 'bg-amber-50 text-amber-900 ring-amber-700' },
} as const;

/** The expiry choice: presets and a date. */
function ExpiryField({ choice, date, onChoice, onDate }: { choice: ExpiryChoice; date: string; onChoice: (c: ExpiryChoice) => void; onDate: (d: string) => void }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Expires
      </label>
      <select id={id} value={choice} onChange={(e) => onChoice(e.target.value as ExpiryChoice)} className={selectClass}>
        {EXPIRY_PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
      {choice === 'date' && <TextField label="Expiry date" type="date" value={date} onChange={(e) => onDate(e.target.value)} />}
    </div>
  );
}

function Checkbox({ label, checked, onChange, disabled, hint }: { label: string; checked: boolean; onChange: (on: boolean) => void; disabled?: boolean; hint?: string }) {
  const hintId = useId();
  return (
    <div>
      <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {hint && (
        <p id={hintId} className="-mt-2 mb-1 pl-6 text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The name-and-birth-date switch, the same words on a new link and an existing one. */
const IDENTITY_LABEL = 'Show my name and date of birth';
const IDENTITY_HINT = 'On the page, the PDF and the FHIR file, so a doctor can tell whose record it is. Turn off only for an anonymous summary.';

/** Make a link: label, expiry, optional passcode, e-mail on view, providers flag, name and date of birth shown. */
function CreateLink({ onDone }: { onDone: (text: string) => void }) {
  const [label, setLabel] = useState('');
  const [choice, setChoice] = useState<ExpiryChoice>('30');
  const [date, setDate] = useState('');
  const [passcode, setPasscode] = useState('');
  const [notify, setNotify] = useState(false);
  const [providers, setProviders] = useState(false);
  const [identity, setIdentity] = useState(true);
  const [trends, setTrends] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [create, creating] = useShareLinksCreateMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const expires = expiryFrom(choice, date);
    if (!label.trim()) return setError('Give the link a name, e.g. "For Dr Lee".');
    if (expires === undefined) return setError('Choose a future date for the expiry.');
    if (passcode && passcode.length < 4) return setError('The passcode must be 4 to 64 characters.');
    try {
      await create({
        body: {
          label: label.trim(),
          expires_at: expires,
          ...(passcode ? { passcode } : {}),
          notify_on_view: notify,
          providers_may_see_documents: providers,
          show_patient_identity: identity,
          ...(trends.length ? { trends } : {}),
        },
      }).unwrap();
      // Every setting back to its default: the next link is for someone else, and carrying over
      // (say) "e-mail me when it is opened" would set it without the owner choosing it.
      setLabel('');
      setChoice('30');
      setDate('');
      setPasscode('');
      setNotify(false);
      setProviders(false);
      setIdentity(true);
      setTrends([]);
      onDone(`Link "${label.trim()}" made.`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 print:hidden">
      <h2 className="text-lg font-semibold text-slate-900">Make a new link</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name of the link" value={label} maxLength={60} placeholder="For Dr Lee" onChange={(e) => setLabel(e.target.value)} />
        <ExpiryField choice={choice} date={date} onChoice={setChoice} onDate={setDate} />
        <TextField
          label="Passcode (optional)"
          value={passcode}
          maxLength={64}
          autoComplete="off"
          hint="Asked before the summary shows. Tell it to the person separately."
          onChange={(e) => setPasscode(e.target.value)}
        />
        <div>
          <Checkbox label="E-mail me when it is opened (at most once an hour)" checked={notify} onChange={setNotify} />
          <Checkbox label="Care providers may ask to see my documents" checked={providers} onChange={setProviders} />
          <Checkbox label={IDENTITY_LABEL} hint={IDENTITY_HINT} checked={identity} onChange={setIdentity} />
        </div>
        <div className="sm:col-span-2">
          <TrendsPicker selected={trends} onChange={setTrends} />
        </div>
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" loading={creating.isLoading}>
        Make link
      </Button>
    </form>
  );
}

/** One link: its URL (copy), QR (download), views, expiry, passcode, and its changes. */
function LinkCard({ link, userId, onNotice }: { link: ShareLink; userId: string; onNotice: (tone: 'success' | 'error', text: string) => void }) {
  const state = linkState(link);
  const live = state !== 'revoked';
  const [showQr, setShowQr] = useState(false);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const viewOnly = useViewOnlyReason() !== null;
  const [passcode, setPasscode] = useState('');
  const [choice, setChoice] = useState<ExpiryChoice>(() => expiryChoiceOf(link.expires_at).choice);
  const [date, setDate] = useState(() => expiryChoiceOf(link.expires_at).date);
  const [trends, setTrends] = useState<string[]>(() => link.trends ?? []);
  const [update, updating] = useShareLinksUpdateMutation();
  const [revoke, revoking] = useShareLinksRevokeMutation();
  const badge = STATE_BADGES[state];

  async function change(body: Parameters<typeof update>[0]['body'], done: string) {
    try {
      await update({ linkId: link.id, body: body }).unwrap();
      onNotice('success', done);
    } catch (failure) {
      onNotice('error', errorMessage(failure));
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(link.url);
      onNotice('success', `Copied the link "${link.label}".`);
    } catch {
      onNotice('error', 'The link could not be copied: select it and copy it yourself.');
    }
  }

  async function downloadQr() {
    try {
      saveBlob(await qrPng(link.qr_text, QR_SIZE), link.purpose === 'default' ? qrFilename(userId) : `medfolio_${userId}_${link.id.slice(0, 8)}_qr.png`);
    } catch {
      onNotice('error', 'The QR image could not be saved. Please try again.');
    }
  }

  return (
    <li className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="share-link">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">
          {link.label}
          {link.purpose !== 'custom' && <span className="ml-2 text-sm font-normal text-slate-600">({link.purpose === 'default' ? 'your QR code link' : 'wallet pass'})</span>}
        </h3>
        <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badge.style}`}>{badge.label}</span>
      </div>
      {live && (
        <div className="mt-3 flex flex-col gap-2 sm:flex-row">
          <input readOnly aria-label={`Link "${link.label}"`} value={link.url} className="block w-full rounded-lg border border-slate-400 bg-slate-100 px-3 py-2 text-sm text-slate-900" onFocus={(e) => e.target.select()} />
          <div className="flex gap-2 print:hidden">
            <Button variant="secondary" onClick={() => void copy()}>
              Copy
            </Button>
            <Button variant="secondary" aria-expanded={showQr} onClick={() => setShowQr((on) => !on)}>
              QR
            </Button>
          </div>
        </div>
      )}
      {live && showQr && (
        <div className="mt-3 flex flex-col items-start gap-2">
          <QrCode value={link.qr_text} size={QR_SIZE} label={`QR code of the link "${link.label}"`} />
          <Button variant="secondary" onClick={() => void downloadQr()}>
            Download QR
          </Button>
          {link.shl && <p className="text-sm text-slate-700">A phone camera opens the summary page; a doctor&apos;s SMART Health Link app reads it as FHIR.</p>}
        </div>
      )}
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2">
        <div>
          <dt className="inline font-medium">Views: </dt>
          <dd className="inline" data-testid="view-count">
            {link.view_count}
            {link.last_viewed_at && (
              <>
                {' '}
                (last <When iso={link.last_viewed_at} />)
              </>
            )}
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">Expires: </dt>
          <dd className="inline">{link.expires_at ? <When iso={link.expires_at} /> : 'never'}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Passcode: </dt>
          <dd className="inline">{link.locked ? 'locked after too many wrong tries: set a new one' : link.has_passcode ? 'yes' : 'none'}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Your name and date of birth: </dt>
          <dd className="inline">{link.show_patient_identity === false ? 'not shown (anonymous)' : 'shown'}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Health trends: </dt>
          <dd className="inline" data-testid="link-trends">
            {link.trends?.length ? `${link.trends.length} ${link.trends.length === 1 ? 'test' : 'tests'} shared` : 'none'}
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">Made: </dt>
          <dd className="inline">
            <When iso={link.created_at} />
            {link.revoked_at && (
              <>
                , revoked <When iso={link.revoked_at} />
              </>
            )}
          </dd>
        </div>
      </dl>
      {live && (
        <details className="mt-3 print:hidden">
          <summary className="cursor-pointer text-sm font-semibold text-brand-800">Change</summary>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <TextField label="New passcode" value={passcode} maxLength={64} autoComplete="off" onChange={(e) => setPasscode(e.target.value)} />
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  disabled={passcode.length < 4}
                  loading={updating.isLoading}
                  onClick={() => void change({ passcode }, 'The new passcode is set.').then(() => setPasscode(''))}
                >
                  Set passcode
                </Button>
                {link.has_passcode && (
                  <Button variant="ghost" loading={updating.isLoading} onClick={() => void change({ passcode: null }, 'The passcode is removed.')}>
                    Remove passcode
                  </Button>
                )}
              </div>
            </div>
            <div className="space-y-2">
              <ExpiryField choice={choice} date={date} onChoice={setChoice} onDate={setDate} />
              <Button
                variant="secondary"
                loading={updating.isLoading}
                onClick={() => {
                  const expires = expiryFrom(choice, date);
                  if (expires === undefined) onNotice('error', 'Choose a future date for the expiry.');
                  else void change({ expires_at: expires }, 'The expiry is changed.');
                }}
              >
                Set expiry
              </Button>
            </div>
            <div>
              <Checkbox
                label="E-mail me when it is opened (at most once an hour)"
                checked={link.notify_on_view}
                disabled={updating.isLoading}
                onChange={(on) => void change({ notify_on_view: on }, on ? 'You will get an e-mail when it is opened.' : 'No more e-mails for this link.')}
              />
              <Checkbox
                label="Care providers may ask to see my documents"
                checked={link.providers_may_see_documents}
                disabled={updating.isLoading}
                onChange={(on) => void change({ providers_may_see_documents: on }, 'Saved.')}
              />
              <Checkbox
                label="Also a SMART Health Link (doctors' apps read it as FHIR)"
                checked={link.shl !== null}
                disabled={updating.isLoading}
                onChange={(on) => void change({ shl: on }, on ? 'The QR code now also carries a SMART Health Link.' : 'The SMART Health Link is off.')}
              />
              <Checkbox
                label={IDENTITY_LABEL}
                hint={IDENTITY_HINT}
                checked={link.show_patient_identity !== false}
                disabled={updating.isLoading}
                onChange={(on) =>
                  void change(
                    { show_patient_identity: on },
                    on ? 'Your name and date of birth are shown on this link.' : 'This link is now anonymous: no name or date of birth.',
                  )
                }
              />
            </div>
            <div className="space-y-2 sm:col-span-2">
              <TrendsPicker selected={trends} onChange={setTrends} disabled={updating.isLoading} />
              <Button
                variant="secondary"
                loading={updating.isLoading}
                onClick={() => void change({ trends }, trends.length ? `This link now shares ${trends.length} ${trends.length === 1 ? 'trend' : 'trends'}.` : 'This link shares no trends.')}
              >
                Save trends
              </Button>
            </div>
          </div>
        </details>
      )}
      {live && (
        <div className="mt-4 flex flex-wrap items-center gap-3 print:hidden">
          {!viewOnly && (
            <Button variant="danger" onClick={() => setConfirmRevoke(true)}>
              Revoke
            </Button>
          )}
          {!link.has_passcode && (
            <span className="text-sm text-slate-700">
              Print with its QR code:{' '}
              <a className="font-semibold text-brand-800 underline underline-offset-2" href={`/api/summary/pdf/?user=${encodeURIComponent(link.share_id)}&size=a4`} target="_blank" rel="noreferrer">
                PDF (A4)
              </a>{' '}
              ·{' '}
              <a className="font-semibold text-brand-800 underline underline-offset-2" href={`/api/summary/pdf/?user=${encodeURIComponent(link.share_id)}&size=letter`} target="_blank" rel="noreferrer">
                PDF (Letter)
              </a>
            </span>
          )}
        </div>
      )}
      <Dialog
        open={confirmRevoke}
        title={`Revoke "${link.label}"?`}
        closeLabel="Cancel"
        onClose={() => setConfirmRevoke(false)}
        actions={
          <Button
            variant="danger"
            loading={revoking.isLoading}
            onClick={() =>
              void revoke({ linkId: link.id })
                .unwrap()
                .then(
                  () => onNotice('success', `"${link.label}" no longer opens your summary.`),
                  (failure: unknown) => onNotice('error', errorMessage(failure)),
                )
                .finally(() => setConfirmRevoke(false))
            }
          >
            Revoke now
          </Button>
        }
      >
        <p className="text-slate-700">Anyone holding this link, or its QR code, can no longer open your summary. This cannot be undone; you can make a new link.</p>
        {link.purpose === 'wallet' && (
          <p className="mt-2 text-slate-700">
            This is your wallet pass&apos;s link: the pass is retired for good (it no longer updates, also on any copy). To carry a pass again, issue a new one
            from your dashboard.
          </p>
        )}
      </Dialog>
    </li>
  );
}

/** /share: the patient's share links. */
export default function SharePanel() {
  const { user } = useSession();
  const { data, error, isLoading } = useShareLinksListQuery();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const onNotice = (tone: 'success' | 'error', text: string) => setNotice({ tone, text });
  const viewOnly = useViewOnlyReason();
  if (isLoading) return <PageLoading label="Loading your links…" />;
  const links = data ?? [];
  const live = links.filter((l) => !l.revoked_at);
  const revoked = links.filter((l) => l.revoked_at);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <h1 className={heading}>Share your summary</h1>
        <p className="mt-2 text-slate-700">
          Each link opens the summary you last confirmed, never your documents. Give each doctor their own link, so you can cut one off
          without the others. Every view is listed in your{' '}
          <Link to="/history" className="font-semibold text-brand-800 underline underline-offset-2">
            access history
          </Link>
          .
        </p>
      </div>
      {notice && (
        <div aria-live="polite">
          <Notice tone={notice.tone}>{notice.text}</Notice>
        </div>
      )}
      {error && <Notice tone="error">{errorMessage(error, 'Your links could not be loaded. Please try again.')}</Notice>}
      {viewOnly ? <Notice tone="info">{viewOnly} Making or revoking share links is off.</Notice> : <CreateLink onDone={(text) => onNotice('success', text)} />}
      <section aria-labelledby="live-links">
        <h2 id="live-links" className="text-lg font-semibold text-slate-900">
          Your links ({live.length})
        </h2>
        {live.length === 0 ? (
          <p className="mt-2 text-slate-700">No links yet.</p>
        ) : (
          <ul className="mt-3 space-y-4">
            {live.map((link) => (
              <LinkCard key={link.id} link={link} userId={user?.id ?? ''} onNotice={onNotice} />
            ))}
          </ul>
        )}
      </section>
      {revoked.length > 0 && (
        <section aria-labelledby="revoked-links">
          <h2 id="revoked-links" className="text-lg font-semibold text-slate-900">
            Revoked ({revoked.length})
          </h2>
          <ul className="mt-3 space-y-4">
            {revoked.map((link) => (
              <LinkCard key={link.id} link={link} userId={user?.id ?? ''} onNotice={onNotice} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
