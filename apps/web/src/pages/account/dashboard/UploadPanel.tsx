import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useDocumentsUploadMutation } from '../../../api/api';
import { errorMessage } from '../../../api/errors';
import { documentsUploadArg } from '../../../api/upload';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { ACCEPT_ATTRIBUTE, acceptBatch, apportionProgress, FILES_REQUIRED_MESSAGE, formatMB, INVALID_FILE_MESSAGE, UPLOAD_SUCCESS_MESSAGE } from './files';
import { Icon } from './icons';
import { LinkedMessage } from './LinkedMessage';

interface Selected {
  key: number;
  file: File;
}

interface Result {
  title: string;
  message: string;
  tone: 'success' | 'error';
}

/**
 * Add Documents: a drop zone and a multi-file picker (spec sections 2 and 5), the selected files
 * with their sizes and a Remove button each, Cancel and Upload. The upload shows a real progress
 * bar per file; its result is a dialog. Cancel clears the selection (the spec gives it no
 * behaviour); during an upload it stops the upload and keeps the selection.
 */
export function UploadPanel() {
  const [selected, setSelected] = useState<Selected[]>([]);
  const [typeError, setTypeError] = useState(false);
  const [requiredError, setRequiredError] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number[] | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [status, setStatus] = useState('');
  const [upload, { isLoading: uploading }] = useDocumentsUploadMutation();
  const request = useRef<{ abort(): void } | null>(null);
  const cancelled = useRef(false);
  const nextKey = useRef(0);
  const inputId = useId();
  const hintId = useId();
  const recordsHintId = useId();
  const headingId = useId();
  const listHeadingId = useId();

  function addFiles(files: File[]) {
    if (files.length === 0 || uploading) return;
    const { accepted, valid } = acceptBatch(files);
    setTypeError(!valid);
    if (!valid) return;
    setRequiredError(false);
    setSelected((current) => [...current, ...accepted.map((file) => ({ key: nextKey.current++, file }))]);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  }

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    if (!uploading) setDragging(true);
  }

  function onCancel() {
    if (uploading) {
      cancelled.current = true;
      request.current?.abort();
      return;
    }
    setSelected([]);
    setTypeError(false);
    setRequiredError(false);
    setStatus('');
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return;
    if (selected.length === 0) {
      setRequiredError(true);
      return;
    }
    const files = selected.map((s) => s.file);
    const sizes = files.map((f) => f.size);
    cancelled.current = false;
    setProgress(sizes.map(() => 0));
    setStatus(`Uploading ${files.length} ${files.length === 1 ? 'file' : 'files'}…`);
    const pending = upload(documentsUploadArg(files, (loaded, total) => setProgress(apportionProgress(sizes, loaded, total))));
    request.current = pending;
    const answer = await pending;
    request.current = null;
    setProgress(null);
    if ('data' in answer) {
      setSelected([]);
      setStatus('');
      setResult({ title: 'Success', message: answer.data?.message || UPLOAD_SUCCESS_MESSAGE, tone: 'success' });
    } else if (cancelled.current) {
      setStatus('Upload cancelled. Your selection is kept.');
    } else {
      setStatus('');
      setResult({ title: 'Error', message: errorMessage(answer.error), tone: 'error' });
    }
  }

  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Add Documents
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-4">
        <div
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={(event) => {
            // Moving over the zone's own text and button is not leaving it.
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="drop-zone"
          className={`flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
            dragging ? 'border-brand-700 bg-brand-50' : 'border-slate-300 bg-slate-50'
          }`}
        >
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-100 text-brand-800">
            <Icon name="upload" className="h-6 w-6" />
          </span>
          <p className="font-medium text-slate-900">Drag &amp; Drop or choose files to upload</p>
          <p id={hintId} className="text-sm text-slate-600">
            Select multiple zip, image, pdf or ms.word files
          </p>
          {/* The seed's hint stays word for word; structured records get their own line. */}
          <p id={recordsHintId} className="text-sm text-slate-600">
            or health records (C-CDA .xml, FHIR .json)
          </p>
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            disabled={uploading}
            aria-describedby={`${hintId} ${recordsHintId}`}
            className="peer sr-only"
            onChange={(event) => {
              addFiles(Array.from(event.target.files ?? []));
              // The same file can be chosen again after being removed.
              event.target.value = '';
            }}
          />
          <label
            htmlFor={inputId}
            className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:border-slate-300 peer-disabled:text-slate-500"
          >
            Choose files
          </label>
        </div>

        {typeError && (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700">
            {INVALID_FILE_MESSAGE}
          </p>
        )}

        {selected.length > 0 && (
          <div className="mt-4">
            <h3 id={listHeadingId} className="text-sm font-semibold text-slate-900">
              Selected Files ({selected.length}):
            </h3>
            <ul aria-labelledby={listHeadingId} tabIndex={0} className="mt-2 max-h-40 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200">
              {selected.map(({ key, file }, index) => {
                const percent = progress?.[index];
                return (
                  <li key={key} className="px-3 py-2">
                    <div className="flex items-center gap-3">
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm font-medium text-slate-900" title={file.name}>
                          {file.name}
                        </p>
                        <p className="text-xs text-slate-600">{formatMB(file.size)}</p>
                      </div>
                      <Button
                        variant="ghost"
                        disabled={uploading}
                        aria-label={`Remove ${file.name}`}
                        onClick={() => setSelected((current) => current.filter((s) => s.key !== key))}
                        className="shrink-0"
                      >
                        Remove
                      </Button>
                    </div>
                    {percent !== undefined && (
                      <div className="mt-1 flex items-center gap-2">
                        <div
                          role="progressbar"
                          aria-label={`Upload of ${file.name}`}
                          aria-valuemin={0}
                          aria-valuemax={100}
                          aria-valuenow={percent}
                          className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
                        >
                          {/* No width transition: an animated fill lags the number (it read 100% drawn half full). */}
                          <div data-testid="upload-fill" className="h-full rounded-full bg-brand-700" style={{ width: `${percent}%` }} />
                        </div>
                        <span className="w-10 text-right text-xs tabular-nums text-slate-700" aria-hidden="true">
                          {percent}%
                        </span>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        )}

        {requiredError && (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700">
            {FILES_REQUIRED_MESSAGE}
          </p>
        )}

        {/* Always in the page, so that a change of its text is announced. */}
        <div role="status" className="text-sm text-slate-700">
          {status && <p className="mt-3">{status}</p>}
        </div>

        <div className="mt-4 flex flex-wrap items-center justify-end gap-3">
          <Button variant="secondary" onClick={onCancel} disabled={!uploading && selected.length === 0 && !typeError}>
            Cancel
          </Button>
          <Button type="submit" loading={uploading} disabled={selected.length === 0}>
            Upload
          </Button>
        </div>
      </form>

      <p className="mt-4 text-sm text-slate-700">
        Still need help?{' '}
        <Link to="/contact" className="font-semibold text-brand-800 underline hover:text-brand-900">
          Contact us
        </Link>
      </p>

      <Dialog open={result !== null} title={result?.title ?? ''} tone={result?.tone ?? 'info'} onClose={() => setResult(null)}>
        {/* A refusal over the plan's quota ends "…: see /membership.": the path is shown as a link. */}
        <p>{result && <LinkedMessage text={result.message} onNavigate={() => setResult(null)} />}</p>
      </Dialog>
    </section>
  );
}
