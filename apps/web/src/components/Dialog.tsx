import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';

export interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  /** The closing button's label ('Ok' in the spec's dialogs). */
  closeLabel?: string;
  tone?: 'error' | 'success' | 'info';
  /** Extra buttons placed before the closing one (e.g. a confirming action). */
  actions?: ReactNode;
  /** A wider dialog (up to 56rem), e.g. for a document preview. */
  wide?: boolean;
}

/**
 * A modal dialog on the native <dialog> element: focus moves into it and stays there, Escape
 * closes it, and the page behind is inert, all by the browser itself.
 */
export function Dialog({ open, title, children, onClose, closeLabel = 'Ok', tone = 'info', actions, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const accent = tone === 'error' ? 'text-red-800' : tone === 'success' ? 'text-brand-800' : 'text-slate-900';
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto ${wide ? 'w-[min(56rem,calc(100vw-2rem))]' : 'w-[min(28rem,calc(100vw-2rem))]'} rounded-2xl bg-white p-6 shadow-xl backdrop:bg-slate-900/50`}
    >
      {open && (
        <>
          <h2 id={titleId} className={`text-lg font-bold ${accent}`}>
            {title}
          </h2>
          <div className="mt-2 text-slate-700">{children}</div>
          <div className="mt-6 flex justify-end gap-3">
            {actions}
            <Button variant={actions ? 'secondary' : 'primary'} onClick={onClose} autoFocus>
              {closeLabel}
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}

/** The error dialog of a form or sign-in page: open while there is a message, which it shows. */
export function ErrorDialog({ error, onClose }: { error: string | null; onClose: () => void }) {
  return (
    <Dialog open={error !== null} title="Error" tone="error" onClose={onClose}>
      <p>{error}</p>
    </Dialog>
  );
}
