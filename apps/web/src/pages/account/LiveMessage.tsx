export interface Message {
  tone: 'success' | 'error';
  text: string;
  /** A second line, e.g. the server's explanation of a failure. */
  detail?: string | undefined;
}

const box = {
  success: 'border-brand-600 bg-brand-50 text-brand-900',
  error: 'border-red-700 bg-red-50 text-red-800',
} as const;

/**
 * The result of an action, visible and announced. The two live regions are always in the page (a
 * region inserted together with its text is not reliably read out); only their content changes.
 */
export function LiveMessage({ message }: { message: Message | null }) {
  const content = (tone: Message['tone']) =>
    message?.tone === tone && (
      <div className={`rounded-lg border-l-4 px-4 py-3 text-sm ${box[tone]}`}>
        <p className="font-semibold">{message.text}</p>
        {message.detail && <p className="mt-1">{message.detail}</p>}
      </div>
    );
  return (
    <>
      <div role="status">{content('success')}</div>
      <div role="alert">{content('error')}</div>
    </>
  );
}
