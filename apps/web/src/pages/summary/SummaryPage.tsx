import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { errorMessage, httpStatus } from '../../api/errors';
import type { DocumentItemDoc } from '../../api/generated';
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
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { useSession } from '../../session/use-session';
import { saveUrl } from '../account/dashboard/download';
import { DOWNLOAD_ERROR_MESSAGE, DOWNLOAD_NO_URL_MESSAGE } from '../account/dashboard/files';
import { PreviewDialog, useDownloadLink } from '../account/dashboard/PreviewDialog';
import { SectionCard, type ReviewActions } from './SectionCard';
import { SAMPLE_SUMMARY } from './sample';
import { isConfirmed, orderedSections, problemsOf, progressOf } from './sections';

const heading = 'text-2xl font-bold text-slate-900 sm:text-3xl';

/** Anyone's summary but one's own, or signed out: the server says 404 and nothing more is told. */
function NotAvailable({ signedIn }: { signedIn: boolean }) {
  // Signed in from here, the visitor comes back to this summary.
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className={heading}>This summary is not available</h1>
      <p className="mt-4 text-slate-700">
        It may not exist, or it is not shared with you.{' '}
        {signedIn ? 'Your own summary is linked from your home screen.' : 'If it is your own, sign in to see it.'}
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
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

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  return <time dateTime={iso}>{text}</time>;
}

/** Where the summary stands: being read (which documents), up to date (when), or nothing to read yet. */
function StateLine({ summary }: { summary: SummaryItem }) {
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
function asDocument(source: FactSource): DocumentItemDoc {
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
}: {
  summary: SummaryItem;
  refetch: () => void;
  sample?: boolean;
}) {
  const [reviewing, setReviewing] = useState(false);
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

  async function download(doc: DocumentItemDoc) {
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
  const hasContent = summary.sections.length > 0;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className={heading}>Patient Summary</h1>
        {hasContent && !sample && (
          <div className="flex flex-wrap gap-2 print:hidden">
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
      </div>
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
 * /summary/{patientId}: the patient's summary (for now only the owner's own; anyone else gets
 * "not available"). While documents are being read, it asks again every 2 seconds until ready.
 */
export default function SummaryPage() {
  const { id = '' } = useParams();
  return id === 'sample' ? (
    <SummaryView summary={SAMPLE_SUMMARY} refetch={() => undefined} sample />
  ) : (
    <PatientSummary id={id} />
  );
}

function PatientSummary({ id }: { id: string }) {
  const { authenticated } = useSession();
  const [status, setStatus] = useState<string | undefined>();
  const { data, error, isLoading, refetch } = useSummaryGetQuery(
    { user: id },
    { pollingInterval: status === 'processing' ? SUMMARY_POLL_MS : 0 },
  );
  // Derived after render, so the polling interval follows the latest answer (and stops once ready).
  if (data?.status !== status) setStatus(data?.status);

  if (isLoading) return <PageLoading label="Loading the summary…" />;
  if (error && !data) {
    if (httpStatus(error) === 404) return <NotAvailable signedIn={authenticated} />;
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
  return <SummaryView summary={data} refetch={() => void refetch()} />;
}
