import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { DocumentListItem } from '@medfolio/contracts';
import { errorMessage } from '../../api/errors';
import {
  trendsCsvEndpoint,
  useTrendsGetQuery,
  type LockedSeries,
  type TrendSeries,
  type TrendSource,
  type TrendsReply,
} from '../../api/trends';
import { useAppDispatch } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { saveBlob, saveUrl } from '../account/dashboard/download';
import { DOWNLOAD_ERROR_MESSAGE, DOWNLOAD_NO_URL_MESSAGE } from '../account/dashboard/files';
import { PreviewDialog, useDownloadLink } from '../account/dashboard/PreviewDialog';
import { ChartSlot } from './ChartSlot';
import { FLAG_TEXT, formatPointDate, isOutOfRange, latestPoint, seriesAnchor, withUnit } from './format';
import { SeriesTable } from './SeriesTable';
import { Timeline } from './Timeline';

const heading = 'text-2xl font-bold text-slate-900 sm:text-3xl';
const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6';
const linkClass = 'font-semibold text-brand-800 underline underline-offset-2';

/** A cited document, opened in the dashboard's preview (a PDF at the cited page). */
function asDocument(source: TrendSource & { document_id: string }): DocumentListItem {
  return {
    id: source.document_id,
    filename: source.filename ?? 'Document',
    url: null,
    uploaded_at: '',
    size: 0,
    content_type: 'application/octet-stream',
  };
}

/** One test: its newest value, the chart and, beside it, the table of every value. */
function SeriesCard({ series, onOpen }: { series: TrendSeries; onOpen: (source: TrendSource) => void }) {
  const tableId = useId();
  const latest = latestPoint(series);
  const outCount = series.points.filter((p) => isOutOfRange(p.flag)).length;
  return (
    <article
      id={seriesAnchor(series.key)}
      aria-labelledby={`${tableId}-h`}
      className={`${card} scroll-mt-4`}
      data-testid="trend-series"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${tableId}-h`} className="text-lg font-semibold text-slate-900">
          {series.name}
        </h3>
        <p className="text-sm text-slate-700">
          {series.points.length} {series.points.length === 1 ? 'value' : 'values'}
          {outCount > 0 && `, ${outCount} out of range`}
        </p>
      </div>
      {latest && (
        <p className="mt-1 text-slate-800">
          Latest: <span className="font-semibold">{withUnit(latest.value, series.unit)}</span>
          {latest.flag && isOutOfRange(latest.flag) && (
            <span className="font-semibold text-red-800"> ({FLAG_TEXT[latest.flag].toLowerCase()})</span>
          )}
          {latest.date && <span className="text-slate-700">, {formatPointDate(latest.date)}</span>}
        </p>
      )}
      <div className="mt-4 grid gap-6 xl:grid-cols-2">
        <div className="min-w-0">
          <ChartSlot series={series} tableId={tableId} />
        </div>
        <div className="min-w-0">
          <SeriesTable series={series} onOpen={onOpen} id={tableId} />
        </div>
      </div>
    </article>
  );
}

/** Other plans: the first series is real; the rest are named with their counts, and the plans page is one click away. */
function UpgradePrompt({ locked, shown }: { locked: LockedSeries[]; shown: TrendSeries | undefined }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border-2 border-brand-600 bg-brand-50 p-5 sm:p-6"
      data-testid="trends-upgrade"
    >
      <h2 id={headingId} className="text-lg font-semibold text-brand-900">
        {locked.length > 0
          ? `${locked.length} more ${locked.length === 1 ? 'test' : 'tests'} in your records`
          : 'Every test, and your timeline'}
      </h2>
      <p className="mt-1 text-slate-800">
        Your plan shows a preview{shown ? `: ${shown.name}` : ''}. Health trends for every test, and the timeline of
        your conditions, medicines, procedures and visits, come with the Plus and Family plans (advanced analytics).
      </p>
      {locked.length > 0 && (
        <ul className="mt-3 grid gap-x-6 gap-y-1 text-slate-800 sm:grid-cols-2" aria-label="Tests in the full view">
          {locked.map((series) => (
            <li key={series.key}>
              <svg
                viewBox="0 0 16 16"
                aria-hidden="true"
                className="mr-1.5 inline-block h-3.5 w-3.5 align-[-2px] text-brand-800"
              >
                <path
                  fill="currentColor"
                  d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm2 0h4V5a2 2 0 1 0-4 0v2Z"
                />
              </svg>
              {series.name}{' '}
              <span className="text-slate-600">
                ({series.points} {series.points === 1 ? 'value' : 'values'})
              </span>
            </li>
          ))}
        </ul>
      )}
      <Link
        to="/membership"
        className="mt-4 inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        See Plus and Family
      </Link>
    </section>
  );
}

/** Download CSV: every observation as the documents gave them (any plan), saved as a file. */
function CsvButton({ onResult }: { onResult: (tone: 'success' | 'error', text: string) => void }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const { filename, content } = await dispatch(
        trendsCsvEndpoint.initiate(undefined, { subscribe: false, forceRefetch: true }),
      ).unwrap();
      saveBlob(new Blob([content], { type: 'text/csv;charset=utf-8' }), filename);
      onResult('success', `Your results are downloading as ${filename}.`);
    } catch (failure) {
      onResult('error', errorMessage(failure, 'The CSV could not be made. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="secondary" loading={busy} onClick={() => void download()}>
      Download CSV
    </Button>
  );
}

function TrendsView({ data }: { data: TrendsReply }) {
  const [opened, setOpened] = useState<(TrendSource & { document_id: string }) | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const downloadLink = useDownloadLink();
  const preview = data.access === 'preview';
  const empty = data.series.length === 0 && data.locked.length === 0;
  const open = (source: TrendSource) => {
    if (source.document_id) setOpened({ ...source, document_id: source.document_id });
  };

  async function download(doc: DocumentListItem) {
    setOpened(null);
    try {
      const link = await downloadLink(doc.id);
      if (!link?.download_url) return setNotice({ tone: 'error', text: DOWNLOAD_NO_URL_MESSAGE });
      saveUrl(link.download_url, link.filename || doc.filename);
    } catch (failure) {
      setNotice({ tone: 'error', text: errorMessage(failure, DOWNLOAD_ERROR_MESSAGE) });
    }
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-3xl">
          <h1 className={heading}>Health trends</h1>
          <p className="mt-2 text-slate-700">
            Your lab results and vital signs over time, from every document you added: the same test from different
            clinics on one line, in one unit. Out-of-range values are marked ▲ high, ▼ low or ◆ abnormal. Each value
            names the document it comes from: open it to check.
          </p>
        </div>
        {!empty && (
          <div className="flex flex-wrap gap-2 print:hidden">
            <CsvButton onResult={(tone, text) => setNotice({ tone, text })} />
            <Link
              to="/share"
              className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
            >
              Share trends
            </Link>
          </div>
        )}
      </div>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}

      {empty ? (
        <div className={card}>
          <h2 className="text-lg font-semibold text-slate-900">No results or vital signs yet</h2>
          <p className="mt-1 text-slate-700">
            Lab results, blood pressure, weight and other measurements appear here once your documents contain them
            (C-CDA and FHIR records from clinics, PDF lab reports).{' '}
            <Link to="/" className={linkClass}>
              Add documents
            </Link>
          </p>
        </div>
      ) : (
        <>
          {!preview && data.series.length > 3 && (
            <nav aria-label="Tests on this page" className="text-sm">
              <ul className="flex flex-wrap gap-2">
                {data.series.map((series) => (
                  <li key={series.key}>
                    <a
                      href={`#${seriesAnchor(series.key)}`}
                      className="inline-flex min-h-11 items-center rounded-full bg-white px-3 font-medium text-brand-800 ring-1 ring-slate-300 hover:bg-brand-50"
                    >
                      {series.name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <section aria-labelledby="trends-measures" className="space-y-4">
            <h2 id="trends-measures" className="sr-only">
              Your measures
            </h2>
            {data.series.map((series) => (
              <SeriesCard key={series.key} series={series} onOpen={open} />
            ))}
          </section>
          {preview && <UpgradePrompt locked={data.locked} shown={data.series[0]} />}
          {!preview && (
            <section aria-labelledby="trends-timeline" className={card}>
              <h2 id="trends-timeline" className="mb-4 text-lg font-semibold text-slate-900">
                Timeline
              </h2>
              <Timeline events={data.timeline} onOpen={open} />
            </section>
          )}
        </>
      )}
      <PreviewDialog
        doc={opened ? asDocument(opened) : null}
        page={opened?.page ?? null}
        onClose={() => setOpened(null)}
        onDownload={(doc) => void download(doc)}
      />
    </div>
  );
}

/** /trends: the signed-in patient's results and vital signs over time, and their timeline (issue 31). */
export default function TrendsPage() {
  const { data, error, isLoading, isFetching, refetch } = useTrendsGetQuery();
  if (isLoading) return <PageLoading label="Loading your trends…" />;
  if (error || !data) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        <h1 className={heading}>Health trends</h1>
        <div className="mt-4">
          <Notice tone="error">{errorMessage(error, 'Your trends could not be loaded. Please try again.')}</Notice>
        </div>
        <Button className="mt-4" variant="secondary" loading={isFetching} onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <TrendsView data={data} />;
}
