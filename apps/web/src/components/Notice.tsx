import type { ReactNode } from 'react';

/** A visible, announced message in the page (success after sign-up, verification, reset request...). */
export function Notice({ tone = 'success', children }: { tone?: 'success' | 'error' | 'info'; children: ReactNode }) {
  const style =
    tone === 'success'
      ? 'border-brand-600 bg-brand-50 text-brand-900'
      : tone === 'error'
        ? 'border-red-700 bg-red-50 text-red-800'
        : 'border-slate-300 bg-white text-slate-800';
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border-l-4 px-4 py-3 text-sm ${style}`}>
      {children}
    </div>
  );
}
