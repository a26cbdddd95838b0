import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useLazyProvidersDownloadLinkQuery, useProvidersDocumentsQuery } from '../../api/api';
import { errorMessage, httpStatus } from '../../api/errors';
import type { DocumentListItem } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { saveUrl } from '../account/dashboard/download';

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);
}

/**
 * /providers/patients/{patientId}: a patient's documents, read-only, for a doctor they granted
 * access to: previews of images and download links. Each listing and download is in the
 * patient's access history under the doctor's name. Without access: "not available" (404).
 */
export default function PatientDocuments() {
  const { patientId = '' } = useParams();
  const { data, isLoading, error } = useProvidersDocumentsQuery({ patientId });
  const [fetchLink] = useLazyProvidersDownloadLinkQuery();
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function download(doc: DocumentListItem) {
    setNotice(null);
    setBusy(doc.id);
    try {
      const link = await fetchLink({ patientId, documentId: doc.id }).unwrap();
      saveUrl(link.download_url, link.filename);
    } catch (failure) {
      setNotice(errorMessage(failure, 'The document could not be downloaded. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  if (isLoading) return <PageLoading label="Loading the documents…" />;
  if (error && httpStatus(error) === 404) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">These documents are not available</h1>
        <p className="mt-4 text-slate-700">The patient has not given you access, or it has ended.</p>
        <Link to="/providers/patients" className="mt-4 inline-block font-semibold text-brand-800 underline underline-offset-2">
          Your patients
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Patient documents</h1>
      <p className="mt-2 text-slate-700">Read-only. The patient sees each document you open in their access history.</p>
      {error && (
        <div className="mt-4">
          <Notice tone="error">{errorMessage(error)}</Notice>
        </div>
      )}
      {notice && (
        <div className="mt-4">
          <Notice tone="error">{notice}</Notice>
        </div>
      )}
      {data && data.length === 0 && <p className="mt-6 text-slate-700">The patient has no documents.</p>}
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {data?.map((doc) => (
          <li key={doc.id} className="flex gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            {doc.url ? (
              <img src={doc.url} alt={`Preview of ${doc.filename}`} className="h-20 w-20 shrink-0 rounded object-cover" />
            ) : (
              <div aria-hidden="true" className="flex h-20 w-20 shrink-0 items-center justify-center rounded bg-slate-100 text-xs font-semibold uppercase text-slate-600">
                {doc.filename.split('.').pop()}
              </div>
            )}
            <div className="min-w-0 flex-1">
              <p className="break-words font-semibold text-slate-900">{doc.filename}</p>
              <p className="text-sm text-slate-700">Uploaded {formatDate(doc.uploaded_at)}</p>
              <Button className="mt-2" variant="secondary" loading={busy === doc.id} aria-label={`Download ${doc.filename}`} onClick={() => void download(doc)}>
                Download
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
