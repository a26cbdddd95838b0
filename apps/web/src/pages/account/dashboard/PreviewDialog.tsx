import { useCallback, useEffect, useState } from 'react';
import { api } from '../../../api/api';
import { errorMessage } from '../../../api/errors';
import type { DocumentListItem } from '@medfolio/contracts';
import { useAppDispatch } from '../../../app/hooks';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { Spinner } from '../../../components/Spinner';
import { DOWNLOAD_NO_URL_MESSAGE, kindOf } from './files';

type Preview =
  | { state: 'loading' }
  | { state: 'image'; url: string }
  | { state: 'pdf'; url: string }
  | { state: 'none' }
  | { state: 'failed'; message: string };

/** A fresh 5-minute download link of one document: never cached (each one is audited). */
export function useDownloadLink() {
  const dispatch = useAppDispatch();
  return useCallback(
    (documentId: string) => dispatch(api.endpoints.documentsDownloadLink.initiate({ documentId }, { subscribe: false, forceRefetch: true })).unwrap(),
    [dispatch],
  );
}

/**
 * The preview of one document in a modal: an image is shown from its download link; a PDF is
 * fetched as a Blob and shown from a blob: URL (its link is an attachment, which a frame would
 * download rather than show), with a download link inside for browsers without a PDF viewer;
 * other types say so and offer Download. The blob: URL is revoked when the preview closes.
 */
export function PreviewDialog({
  doc,
  page,
  onClose,
  onDownload,
}: {
  doc: DocumentListItem | null;
  /** A PDF opens at this page (the summary's "labs.pdf, page 2"), through the viewer's #page= fragment. */
  page?: number | null;
  onClose: () => void;
  onDownload: (doc: DocumentListItem) => void;
}) {
  // What was loaded, and for which document: a preview never shows another document's content.
  const [loaded, setLoaded] = useState<{ id: string; preview: Preview } | null>(null);
  const downloadLink = useDownloadLink();
  const kind = doc ? kindOf(doc) : 'other';
  const id = doc?.id;
  const previewable = kind === 'image' || kind === 'pdf';
  const preview: Preview = !previewable ? { state: 'none' } : loaded && loaded.id === id ? loaded.preview : { state: 'loading' };

  useEffect(() => {
    if (!id || !previewable) return;
    const setPreview = (value: Preview) => setLoaded({ id, preview: value });
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void (async () => {
      try {
        const link = await downloadLink(id);
        if (controller.signal.aborted) return;
        if (!link?.download_url) {
          setPreview({ state: 'failed', message: DOWNLOAD_NO_URL_MESSAGE });
          return;
        }
        if (kind === 'image') {
          setPreview({ state: 'image', url: link.download_url });
          return;
        }
        const response = await fetch(new URL(link.download_url, window.location.href).href, { signal: controller.signal });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const bytes = await response.blob();
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
        setPreview({ state: 'pdf', url: objectUrl });
      } catch (error) {
        if (!controller.signal.aborted) setPreview({ state: 'failed', message: errorMessage(error, 'The preview could not be loaded.') });
      }
    })();
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      // Opened again later, the document loads afresh (the old link and blob: URL are gone).
      setLoaded((current) => (current?.id === id ? null : current));
    };
  }, [id, kind, previewable, downloadLink]);

  return (
    <Dialog
      open={doc !== null}
      wide
      title={doc ? (page ? `${doc.filename}, page ${page}` : doc.filename) : ''}
      closeLabel="Close"
      onClose={onClose}
      actions={
        doc && (
          <Button variant="primary" onClick={() => onDownload(doc)}>
            Download
          </Button>
        )
      }
    >
      {doc && (
        <div className="flex min-h-40 items-center justify-center">
          {preview.state === 'loading' && (
            <p role="status" className="flex items-center gap-2 text-slate-700">
              <Spinner className="h-5 w-5" /> Loading the preview…
            </p>
          )}
          {preview.state === 'image' && (
            <img
              src={preview.url}
              alt={doc.filename}
              className="max-h-[65vh] w-auto max-w-full rounded-lg object-contain"
              onError={() => id && setLoaded({ id, preview: { state: 'failed', message: 'The preview could not be loaded.' } })}
            />
          )}
          {preview.state === 'pdf' && (
            <object data={page ? `${preview.url}#page=${page}` : preview.url} type="application/pdf" aria-label={`Preview of ${doc.filename}`} className="h-[65vh] w-full rounded-lg border border-slate-200">
              <p className="p-4 text-slate-700">
                This browser cannot show the PDF here.{' '}
                <a href={preview.url} download={doc.filename} className="font-semibold text-brand-800 underline">
                  Download {doc.filename}
                </a>
              </p>
            </object>
          )}
          {preview.state === 'none' && <p className="text-slate-700">This type of file cannot be previewed here. Download it to open it on your device.</p>}
          {preview.state === 'failed' && (
            <p role="alert" className="text-red-800">
              {preview.message}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
