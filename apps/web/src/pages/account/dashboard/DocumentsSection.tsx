import { useEffect, useId, useMemo, useState } from 'react';
import { useDocumentsDeleteMutation, useDocumentsListQuery } from '../../../api/api';
import { useDocumentsSetPrivateMutation, useFamilyAssentQuery } from '../../../api/family';
import { useAppSelector } from '../../../app/hooks';
import { useViewOnlyReason } from '../../../components/Viewing';
import { errorMessage } from '../../../api/errors';
import type { DocumentListItem } from '@medfolio/contracts';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { Spinner } from '../../../components/Spinner';
import { saveUrl } from './download';
import {
  awaitingThumbnail,
  DELETE_ERROR_MESSAGE,
  DOWNLOAD_ERROR_MESSAGE,
  DOWNLOAD_NO_URL_MESSAGE,
  fileTypeLabel,
  filterDocuments,
  formatDate,
  kindOf,
  LIST_ERROR_MESSAGE,
  LOCATION,
  THUMBNAIL_POLL_MS,
} from './files';
import { FileIcon, Icon } from './icons';
import { PreviewDialog, useDownloadLink } from './PreviewDialog';
import { useStoredChoice } from '../../../components/use-stored-choice';

type View = 'list' | 'grid';
/** Where the list/grid choice is remembered in this browser. */
export const VIEW_KEY = 'medfolio.documents.view';

interface Notice {
  title: string;
  message: string;
  tone: 'success' | 'error';
}

interface RowActions {
  onPreview: (doc: DocumentListItem) => void;
  onDownload: (doc: DocumentListItem) => void;
  /** Absent on a record the viewer may only read (a caregiver with the view role). */
  onDelete?: ((doc: DocumentListItem) => void) | undefined;
  /** Present for a teen on their own record (with a guardian or caregivers): hide a document from them, or show it again. */
  onPrivacy?: ((doc: DocumentListItem) => void) | undefined;
}

/** A teen's switch on their own document: Private = hidden from their parents and caregivers. */
function PrivateSwitch({ doc, onPrivacy }: { doc: DocumentListItem; onPrivacy: (doc: DocumentListItem) => void }) {
  const on = doc.private === true;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={`Private: hide ${doc.filename} from your parents and caregivers`}
      title="Hidden from your parents and caregivers"
      onClick={() => onPrivacy(doc)}
      className={`inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-xs font-semibold ${on ? 'bg-slate-800 text-white' : 'text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100'}`}
    >
      <span aria-hidden="true">{on ? '●' : '○'}</span> Private
    </button>
  );
}

const iconButton = 'inline-flex h-11 w-11 items-center justify-center rounded-lg transition-colors';

function Actions({ doc, onDownload, onDelete, onPrivacy }: { doc: DocumentListItem } & Pick<RowActions, 'onDownload' | 'onDelete' | 'onPrivacy'>) {
  return (
    <div className="flex shrink-0 items-center gap-1">
      {onPrivacy && <PrivateSwitch doc={doc} onPrivacy={onPrivacy} />}
      <button type="button" aria-label={`Download ${doc.filename}`} title="Download" onClick={() => onDownload(doc)} className={`${iconButton} text-brand-800 hover:bg-brand-50`}>
        <Icon name="download" />
      </button>
      {onDelete && (
        <button type="button" aria-label={`Delete ${doc.filename}`} title="Delete" onClick={() => onDelete(doc)} className={`${iconButton} text-red-700 hover:bg-red-50`}>
          <Icon name="trash" />
        </button>
      )}
    </div>
  );
}

/** List view: a table from the md breakpoint, cards below it. */
function ListView({ documents, onPreview, onDownload, onDelete, onPrivacy }: { documents: DocumentListItem[] } & RowActions) {
  return (
    <>
      <div className="hidden md:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">Your documents</caption>
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              <th scope="col" className="w-[40%] py-3 pr-3 font-semibold">
                File name
              </th>
              <th scope="col" className="py-3 pr-3 font-semibold">
                Location (Folder)
              </th>
              <th scope="col" className="w-24 py-3 pr-3 font-semibold">
                File type
              </th>
              <th scope="col" className="w-28 py-3 pr-3 font-semibold">
                Modified
              </th>
              <th scope="col" className="w-24 py-3 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {documents.map((doc) => (
              <tr key={doc.id} className="hover:bg-slate-50">
                <td className="py-1 pr-3">
                  <button
                    type="button"
                    onClick={() => onPreview(doc)}
                    className="flex min-h-11 w-full items-center gap-3 rounded-lg text-left font-medium text-slate-900 hover:text-brand-800 hover:underline"
                  >
                    <FileIcon kind={kindOf(doc)} className="h-8 w-7 shrink-0" />
                    <span className="sr-only">Preview </span>
                    <span className="truncate" title={doc.filename}>
                      {doc.filename}
                    </span>
                  </button>
                </td>
                <td className="py-1 pr-3 text-slate-700">{LOCATION}</td>
                <td className="py-1 pr-3 text-slate-700">{fileTypeLabel(doc)}</td>
                <td className="py-1 pr-3 text-slate-700">{formatDate(doc.uploaded_at)}</td>
                <td className="py-1">
                  <Actions doc={doc} onDownload={onDownload} onDelete={onDelete} onPrivacy={onPrivacy} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="flex flex-col gap-3 md:hidden" aria-label="Your documents">
        {documents.map((doc) => (
          <li key={doc.id} className="flex items-center gap-2 rounded-xl p-3 ring-1 ring-slate-200">
            <button type="button" onClick={() => onPreview(doc)} className="flex min-h-11 min-w-0 flex-1 items-center gap-3 rounded-lg text-left">
              <FileIcon kind={kindOf(doc)} className="h-10 w-8 shrink-0" />
              <span className="min-w-0">
                <span className="sr-only">Preview </span>
                <span className="block truncate font-medium text-slate-900">{doc.filename}</span>
                <span className="block text-xs text-slate-600">{LOCATION}</span>
                <span className="block text-xs text-slate-600">{formatDate(doc.uploaded_at)}</span>
              </span>
            </button>
            <Actions doc={doc} onDownload={onDownload} onDelete={onDelete} onPrivacy={onPrivacy} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** A grid card: the thumbnail for jpg, jpeg and png (the image icon until it exists), else an icon by type. */
function GridCard({ doc, onPreview, onDownload, onDelete, onPrivacy }: { doc: DocumentListItem } & RowActions) {
  const [broken, setBroken] = useState(false);
  const kind = kindOf(doc);
  const thumbnail = kind === 'image' && doc.url && !broken ? doc.url : null;
  return (
    <li className="flex flex-col overflow-hidden rounded-xl ring-1 ring-slate-200">
      <button type="button" onClick={() => onPreview(doc)} className="group flex flex-1 flex-col text-left">
        <span className="flex aspect-square w-full items-center justify-center overflow-hidden bg-slate-100">
          {thumbnail ? (
            <img src={thumbnail} alt="" loading="lazy" onError={() => setBroken(true)} className="h-full w-full object-cover" />
          ) : (
            <FileIcon kind={kind} className="h-16 w-14" />
          )}
        </span>
        <span className="block px-3 pt-2">
          <span className="sr-only">Preview </span>
          <span className="block truncate text-sm font-medium text-slate-900 group-hover:underline" title={doc.filename}>
            {doc.filename}
          </span>
          <span className="block text-xs text-slate-600">{formatDate(doc.uploaded_at)}</span>
        </span>
      </button>
      <div className="flex justify-end px-1 pb-1">
        <Actions doc={doc} onDownload={onDownload} onDelete={onDelete} onPrivacy={onPrivacy} />
      </div>
    </li>
  );
}

/**
 * The documents section: 'Documents | n Files', search by name, list (default) or grid view, a
 * preview on click, download and delete (with confirmation), and the spec's dialogs.
 */
export function DocumentsSection() {
  // While a new image's thumbnail is being made, the list asks again every few seconds.
  const [polling, setPolling] = useState(false);
  const { data, isLoading, error, refetch, isFetching, fulfilledTimeStamp } = useDocumentsListQuery(undefined, {
    pollingInterval: polling ? THUMBNAIL_POLL_MS : 0,
  });
  const documents = useMemo(() => data ?? [], [data]);
  // After every answer, even an unchanged one (RTK Query then keeps the same `data`), so the window ends.
  useEffect(() => setPolling(awaitingThumbnail(documents)), [documents, fulfilledTimeStamp]);
  const [deleteDocument, { isLoading: deleting }] = useDocumentsDeleteMutation();
  const downloadLink = useDownloadLink();
  const [query, setQuery] = useState('');
  const [view, setView] = useStoredChoice<View>(VIEW_KEY, ['list', 'grid'], 'list');
  const [previewing, setPreviewing] = useState<DocumentListItem | null>(null);
  const [confirming, setConfirming] = useState<DocumentListItem | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingId = useId();
  const searchId = useId();
  const shown = useMemo(() => filterDocuments(documents, query), [documents, query]);

  async function download(doc: DocumentListItem) {
    setPreviewing(null);
    try {
      const link = await downloadLink(doc.id);
      if (!link?.download_url) {
        setNotice({ title: 'Download Failed', message: DOWNLOAD_NO_URL_MESSAGE, tone: 'error' });
        return;
      }
      saveUrl(link.download_url, link.filename || doc.filename);
      setNotice({ title: 'Download Started', message: `Your file "${doc.filename}" is being downloaded.`, tone: 'success' });
    } catch (failure) {
      setNotice({ title: 'Download Failed', message: errorMessage(failure, DOWNLOAD_ERROR_MESSAGE), tone: 'error' });
    }
  }

  async function confirmDelete() {
    if (!confirming) return;
    const doc = confirming;
    try {
      await deleteDocument({ body: { document_id: doc.id } }).unwrap();
      setConfirming(null);
      setAnnouncement(`"${doc.filename}" was deleted.`);
    } catch (failure) {
      setConfirming(null);
      setNotice({ title: 'Error', message: errorMessage(failure, DELETE_ERROR_MESSAGE), tone: 'error' });
    }
  }

  const viewOnly = useViewOnlyReason() !== null;
  // A teen on their own record, with a guardian or caregivers: each document can be made private (hidden from them).
  const ownRecord = useAppSelector((s) => s.viewing.record) === null;
  const { data: assent } = useFamilyAssentQuery(undefined, { skip: !ownRecord });
  const canHide = ownRecord && assent !== undefined && (assent.status !== 'not-needed' || assent.proxies.length > 0);
  const [setPrivate] = useDocumentsSetPrivateMutation();
  async function togglePrivate(doc: DocumentListItem) {
    try {
      const changed = await setPrivate({ documentId: doc.id, body: { private: !doc.private } }).unwrap();
      setAnnouncement(changed.private ? `"${doc.filename}" is private: hidden from your parents and caregivers.` : `"${doc.filename}" is no longer private.`);
    } catch (failure) {
      setNotice({ title: 'Error', message: errorMessage(failure, 'The document could not be changed. Please try again.'), tone: 'error' });
    }
  }
  const actions: RowActions = {
    onPreview: setPreviewing,
    onDownload: (doc) => void download(doc),
    onDelete: viewOnly ? undefined : setConfirming,
    onPrivacy: canHide ? (doc) => void togglePrivate(doc) : undefined,
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            Documents <span className="font-normal text-slate-600">|</span> {documents.length} Files
          </h2>
          <p className="mt-1 text-sm text-slate-600">Click on a file to preview the file</p>
          {canHide && <p className="mt-1 text-sm text-slate-700">Private: hidden from your parents and caregivers.</p>}
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <div className="relative sm:w-72">
            <label htmlFor={searchId} className="sr-only">
              Search files
            </label>
            <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-600">
              <Icon name="search" className="h-4 w-4" />
            </span>
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="Search files..."
              className="min-h-11 w-full rounded-lg border border-slate-400 bg-white py-2 pl-9 pr-3 text-base text-slate-900 placeholder:text-slate-600"
            />
          </div>
          <div role="group" aria-label="View" className="inline-flex self-start rounded-lg border border-slate-300 p-0.5">
            {(['list', 'grid'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                aria-pressed={view === mode}
                onClick={() => setView(mode)}
                className={`inline-flex min-h-11 items-center gap-2 rounded-md px-3 text-sm font-semibold ${
                  view === mode ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100'
                }`}
              >
                <Icon name={mode} className="h-4 w-4" />
                {mode === 'list' ? 'List' : 'Grid'}
                <span className="sr-only"> view</span>
              </button>
            ))}
          </div>
        </div>
      </div>

      <div className="mt-5">
        {isLoading ? (
          <p role="status" className="flex items-center gap-2 py-8 text-slate-700">
            <Spinner className="h-5 w-5" /> Loading your files…
          </p>
        ) : error ? (
          <div role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 px-4 py-3 text-sm text-red-800">
            <p>{errorMessage(error, LIST_ERROR_MESSAGE)}</p>
            <Button variant="secondary" className="mt-3" loading={isFetching} onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : documents.length === 0 ? (
          <p className="py-8 text-center text-slate-700">No files uploaded yet. Upload some files to see them here.</p>
        ) : shown.length === 0 ? (
          <p className="py-8 text-center text-slate-700">No files match “{query.trim()}”.</p>
        ) : view === 'list' ? (
          <ListView documents={shown} {...actions} />
        ) : (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" aria-label="Your documents">
            {shown.map((doc) => (
              <GridCard key={doc.id} doc={doc} {...actions} />
            ))}
          </ul>
        )}
      </div>

      <p role="status" className="sr-only">
        {announcement}
      </p>

      <PreviewDialog doc={previewing} onClose={() => setPreviewing(null)} onDownload={(doc) => void download(doc)} />

      <Dialog
        open={confirming !== null}
        title="Delete this file?"
        closeLabel="Cancel"
        onClose={() => setConfirming(null)}
        actions={
          <Button variant="danger" loading={deleting} onClick={() => void confirmDelete()}>
            Delete
          </Button>
        }
      >
        <p>
          “{confirming?.filename}” will be deleted from your documents. This cannot be undone.
        </p>
      </Dialog>

      <Dialog open={notice !== null} title={notice?.title ?? ''} tone={notice?.tone ?? 'info'} onClose={() => setNotice(null)}>
        <p>{notice?.message}</p>
      </Dialog>
    </section>
  );
}
