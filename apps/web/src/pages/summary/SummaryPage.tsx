import { useViewOnlyReason } from '../../components/Viewing';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { errorMessage, httpStatus } from '../../api/errors';
import type { DocumentListItem } from '@medfolio/contracts';
import {
  SUMMARY_POLL_MS,
  useSummaryAddFactMutation,
  useSummaryConfirmMutation,
  useSummaryEditFactMutation,
  useSummaryGetQuery,
  useSummaryHideFactMutation,
  useSummaryRemoveFactMutation,
  type FactSource,
  type SummaryItem,
} from '../../api/summary';
import { useSummaryUnlockMutation } from '../../api/sharing';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { useSession } from '../../session/use-session';
import { saveUrl } from '../account/dashboard/download';
import { DOWNLOAD_ERROR_MESSAGE, DOWNLOAD_NO_URL_MESSAGE } from '../account/dashboard/files';
import { PreviewDialog, useDownloadLink } from '../account/dashboard/PreviewDialog';
import { DoctorBox } from './DoctorBox';
import { IpsLinks } from './IpsView';
import { PatientLine } from './PatientLine';
import { SectionCard, type ReviewActions } from './SectionCard';
import { SAMPLE_SUMMARY } from './sample';
import { SharedTrends } from '../trends/SharedTrends';
import { isConfirmed, orderedSections, problemsOf, progressOf } from './sections';

const heading = 'text-2xl font-bold text-slate-900 sm:text-3xl';

/**
 * Anything that is not one's own summary nor a usable share link (revoked, expired, locked, wrong or
 * guessed): the server says 404 and this page tells nothing more.
 */
function NotValid({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className={heading}>This link is not valid.</h1>
      <p className="mt-4 text-slate-700">Ask the person who shared it with you for a new link.</p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row print:hidden">
        <Link
          to={signedIn ? '/' : `/login?next=${encodeURIComponent(pathname)}`}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          {signedIn ? 'Go to your home screen' : 'Log in'}
        </Link>
      </div>
    </div>
  );
}

/** A passcode link: the passcode first (POST /api/summary/unlock/), then the summary with its view token. */
function PasscodePrompt({ shareId, onUnlocked, onInvalid }: { shareId: string; onUnlocked: (token: string) => void; onInvalid: () => void }) {
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unlock, unlocking] = useSummaryUnlockMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const reply = await unlock({ body: { user: shareId, passcode } }).unwrap();
      onUnlocked(reply.view_token);
    } catch (failure) {
      if (httpStatus(failure) === 404) onInvalid();
      else setError(errorMessage(failure));
    }
  }

  return (
    <div className="mx-auto max-w-md px-4 py-8 sm:py-12">
      <h1 className={heading}>Patient Summary</h1>
      <p className="mt-4 text-slate-700">This summary is protected by a passcode. The person who shared it can tell you the passcode.</p>
      <form onSubmit={(e) => void submit(e)} className="mt-6 space-y-4">
        <TextField label="Passcode" type="password" autoComplete="off" value={passcode} maxLength={64} error={error ?? undefined} onChange={(e) => setPasscode(e.target.value)} />
        <Button type="submit" loading={unlocking.isLoading} disabled={!passcode}>
          Open the summary
        </Button>
      </form>
    </div>
  );
}

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  return <time dateTime={iso}>{text}</time>;
}

/** Where the summary stands: being read (which documents), up to date (when), or nothing to read yet. */
function StateLine({ summary }: { summary: SummaryItem }) {
  if (summary.shared && (summary.status === 'unreviewed' || summary.confirmed_version === null)) {
    // Before the patient's review: said plainly, and nothing is claimed about any section.
    return (
      <div role="status" data-testid="not-reviewed" className="rounded-lg border-l-4 border-amber-700 bg-amber-50 px-4 py-3 text-amber-950">
        <p className="font-semibold">The patient has not reviewed this summary yet.</p>
        <p className="mt-1 text-sm">
          Nothing from their records is shown until they review and confirm it. This does not mean they have no conditions,
          medicines or allergies: ask the patient.
          {summary.shared.expires_at && (
            <>
              {' '}
              This link expires <When iso={summary.shared.expires_at} />.
            </>
          )}
        </p>
      </div>
    );
  }
  if (summary.shared) {
    return (
      <p role="status" className="text-slate-800">
        {summary.status === 'empty' ? (
          'The patient has not confirmed a summary yet.'
        ) : (
          <>
            Shared through "{summary.shared.label}". Confirmed by the patient
            {summary.updated_at && (
              <>
                {' '}
                (<When iso={summary.updated_at} />)
              </>
            )}
            .
          </>
        )}
        {summary.shared.expires_at && (
          <>
            {' '}
            This link expires <When iso={summary.shared.expires_at} />.
          </>
        )}
      </p>
    );
  }
  if (summary.status === 'processing') {
    const { line, waiting } = progressOf(summary.documents);
    return (
      <p role="status" className="text-slate-800">
        <span className="font-semibold">{line}</span>
        {waiting.length > 0 && <span> Still to read: {waiting.join(', ')}.</span>}
      </p>
    );
  }
  if (summary.status === 'empty') {
    return (
      <div role="status" className="text-slate-800">
        <p className="font-semibold">No summary yet.</p>
        <p>
          Upload your medical records (letters, lab results, discharge papers) and Medfolio builds your summary from
          them.{' '}
          <Link to="/" className="font-semibold text-brand-800 underline underline-offset-2">
            Upload records
          </Link>
        </p>
      </div>
    );
  }
  return (
    <p role="status" className="text-slate-800">
      {summary.updated_at ? (
        <>
          Updated <When iso={summary.updated_at} />.
        </>
      ) : (
        'Up to date.'
      )}{' '}
      {isConfirmed(summary) ? 'You confirmed this version.' : 'Not yet confirmed by you.'}
    </p>
  );
}

/** A source opened in the dashboard's preview: its name decides how (PDFs at the cited page). */
function asDocument(source: FactSource): DocumentListItem {
  return {
    id: source.document_id,
    filename: source.filename,
    url: null,
    uploaded_at: '',
    size: 0,
    content_type: 'application/zip',
  };
}

function SummaryView({
  summary,
  refetch,
  sample = false,
  doctorBox,
  formats,
}: {
  summary: SummaryItem;
  refetch: () => void;
  sample?: boolean;
  /** The 'Are you a Doctor?' box, on someone else's shared summary (its share id, and a passcode link's view token) and on the sample (null). */
  doctorBox?: { shareId: string | null; viewToken?: string };
  /** A shared summary's share id (and view token): offers its PDF and FHIR. */
  formats?: { user: string; viewToken?: string } | undefined;
}) {
  // ?review=1 (the dashboard's "Review your summary first") opens the page in review mode.
  const [searchParams] = useSearchParams();
  // A caregiver with the view role reads the summary; reviewing and sharing are for who manages it.
  const viewOnly = useViewOnlyReason();
  const [reviewing, setReviewing] = useState(() => !sample && !summary.shared && !viewOnly && searchParams.get('review') === '1');
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [opened, setOpened] = useState<FactSource | null>(null);
  const downloadLink = useDownloadLink();
  const [hide, hiding] = useSummaryHideFactMutation();
  const [edit, editing] = useSummaryEditFactMutation();
  const [add, adding] = useSummaryAddFactMutation();
  const [remove, removing] = useSummaryRemoveFactMutation();
  const [confirm, confirming] = useSummaryConfirmMutation();
  const busy = hiding.isLoading || editing.isLoading || adding.isLoading || removing.isLoading || confirming.isLoading;

  /** Runs one review call; says what went wrong if it failed. The page refreshes by its cache tag. */
  async function run(call: () => Promise<unknown>, done: string): Promise<boolean> {
    setNotice(null);
    try {
      await call();
      setNotice({ tone: 'success', text: done });
      return true;
    } catch (failure) {
      setNotice({ tone: 'error', text: errorMessage(failure) });
      return false;
    }
  }

  const review: ReviewActions = {
    busy,
    hide: (fact, hidden) =>
      run(() => hide({ factId: fact.id, hidden }).unwrap(), hidden ? 'Hidden from shares.' : 'Shown in shares again.'),
    edit: (fact, text) => run(() => edit({ factId: fact.id, text }).unwrap(), 'Your correction is saved.'),
    remove: (fact) => run(() => remove({ factId: fact.id }).unwrap(), 'Removed.'),
    add: (section, text) => run(() => add({ section: section.key, text }).unwrap(), `Added to ${section.title}.`),
  };

  async function confirmSummary() {
    setNotice(null);
    try {
      await confirm({ version: summary.version }).unwrap();
      setNotice({ tone: 'success', text: 'Thank you: you confirmed this summary.' });
    } catch (failure) {
      // 409: a newer version was built meanwhile; the tag reloads it, and the patient reviews that one.
      if (httpStatus(failure) === 409) refetch();
      setNotice({ tone: 'error', text: errorMessage(failure) });
    }
  }

  async function download(doc: DocumentListItem) {
    setOpened(null);
    try {
      const link = await downloadLink(doc.id);
      if (!link?.download_url) {
        setNotice({ tone: 'error', text: DOWNLOAD_NO_URL_MESSAGE });
        return;
      }
      saveUrl(link.download_url, link.filename || doc.filename);
    } catch (failure) {
      setNotice({ tone: 'error', text: errorMessage(failure, DOWNLOAD_ERROR_MESSAGE) });
    }
  }

  const problems = problemsOf(summary.documents);
  const hasContent = summary.sections.length > 0 && !(summary.shared && summary.status === 'unreviewed');
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className={heading}>Patient Summary</h1>
        {viewOnly && !sample && !summary.shared && <p className="text-sm text-slate-700">{viewOnly}</p>}
        {hasContent && !sample && !summary.shared && !viewOnly && (
          <div className="flex flex-wrap gap-2 print:hidden">
            <Link
              to="/share"
              className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
            >
              Share
            </Link>
            <Button variant="secondary" aria-pressed={reviewing} onClick={() => setReviewing((on) => !on)}>
              Review
            </Button>
            {reviewing && (
              <Button
                onClick={() => void confirmSummary()}
                loading={confirming.isLoading}
                disabled={busy || summary.version === 0 || isConfirmed(summary)}
              >
                Confirm summary
              </Button>
            )}
          </div>
        )}
      </div>
      <div className="mt-3">
        {!sample && <PatientLine summary={summary} />}
        {sample ? (
          <p className="text-slate-800">
            A sample, for a made-up patient: this is what you, or a doctor you share it with, will read.{' '}
            <Link to="/sign-up" className="font-semibold text-brand-800 underline underline-offset-2">
              Create your own
            </Link>
          </p>
        ) : (
          <StateLine summary={summary} />
        )}
        {formats && <FormatLinks {...formats} />}
      </div>
      {doctorBox && <DoctorBox shareId={doctorBox.shareId} viewToken={doctorBox.viewToken} />}
      {reviewing && (
        <p className="mt-2 text-sm text-slate-700 print:hidden">
          Hide what should not be shown to others, correct what is wrong, add what is missing, then confirm. Hidden
          entries stay visible to you.
        </p>
      )}
      {notice && (
        <div className="mt-4 print:hidden">
          <Notice tone={notice.tone}>{notice.text}</Notice>
        </div>
      )}
      {problems.length > 0 && (
        <div className="mt-4 rounded-lg border-l-4 border-amber-600 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          <p className="font-semibold">Some documents could not be read completely</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {hasContent && (
        <div className="mt-6 grid gap-4">
          {orderedSections(summary.sections).map((section) => (
            <SectionCard
              key={section.key + section.title}
              section={section}
              reviewing={reviewing}
              review={review}
              onOpen={setOpened}
            />
          ))}
        </div>
      )}
      {summary.trends && summary.trends.length > 0 && !(summary.shared && summary.status === 'unreviewed') && <SharedTrends series={summary.trends} />}
      <PreviewDialog
        doc={opened ? asDocument(opened) : null}
        page={opened?.page}
        onClose={() => setOpened(null)}
        onDownload={(doc) => void download(doc)}
      />
    </div>
  );
}

/**
 * /summary/{id}: the owner's own summary (their user id), or the summary a share link shares (a share
 * id, read-only, for anyone holding it; a passcode link asks for the passcode first). Anything else
 * says "This link is not valid.". While documents are being read, it asks again every 2 seconds.
 */
export default function SummaryPage() {
  const { id = '' } = useParams();
  return id === 'sample' ? (
    <SummaryView summary={SAMPLE_SUMMARY} refetch={() => undefined} sample doctorBox={{ shareId: null }} />
  ) : (
    <PatientSummary id={id} />
  );
}

function PatientSummary({ id }: { id: string }) {
  const { authenticated } = useSession();
  const [status, setStatus] = useState<string | undefined>();
  const [viewToken, setViewToken] = useState<string | undefined>();
  const [invalid, setInvalid] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useSummaryGetQuery(
    viewToken ? { user: id, view_token: viewToken } : { user: id },
    { pollingInterval: status === 'processing' ? SUMMARY_POLL_MS : 0 },
  );
  // Derived after render, so the polling interval follows the latest answer (and stops once ready).
  if (data?.status !== status) setStatus(data?.status);

  if (invalid) return <NotValid signedIn={authenticated} />;
  if (isLoading || (isFetching && !data)) return <PageLoading label="Loading the summary…" />;
  if (error && !data) {
    if (httpStatus(error) === 404) return <NotValid signedIn={authenticated} />;
    if (httpStatus(error) === 403) return <PasscodePrompt shareId={id} onUnlocked={setViewToken} onInvalid={() => setInvalid(true)} />;
    return (
      <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        <h1 className={heading}>Patient Summary</h1>
        <div className="mt-4">
          <Notice tone="error">{errorMessage(error, 'The summary could not be loaded. Please try again.')}</Notice>
        </div>
        <Button className="mt-4" variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!data) return <PageLoading label="Loading the summary…" />;
  return (
    <SummaryView
      summary={data}
      refetch={() => void refetch()}
      formats={data.shared ? { user: id, ...(viewToken ? { viewToken } : {}) } : undefined}
      {...(data.shared ? { doctorBox: { shareId: id, ...(viewToken ? { viewToken } : {}) } } : {})}
    />
  );
}

/**
 * A shared summary's other formats: the printable PDF, and the FHIR IPS Bundle to download or read
 * (no longer raw JSON in a tab), for whoever holds the link.
 */
function FormatLinks({ user, viewToken }: { user: string; viewToken?: string }) {
  const query = (extra: string) => `?user=${encodeURIComponent(user)}${viewToken ? `&view_token=${encodeURIComponent(viewToken)}` : ''}${extra}`;
  const style = 'font-semibold text-brand-800 underline underline-offset-2';
  return (
    <div className="mt-2 text-sm text-slate-700 print:hidden">
      Download:{' '}
      <a className={style} href={`/api/summary/pdf/${query('&size=a4')}`} target="_blank" rel="noreferrer">
        PDF (A4)
      </a>{' '}
      ·{' '}
      <a className={style} href={`/api/summary/pdf/${query('&size=letter')}`} target="_blank" rel="noreferrer">
        PDF (Letter)
      </a>{' '}
      · <IpsLinks user={user} linkClass={style} {...(viewToken ? { viewToken } : {})} />
    </div>
  );
}
