import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The centred card every account-access page (login, sign-up, reset, verify) is drawn in. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/**
 * A centred line under an account-access form: an optional question and the link that answers it
 * ('Need help? Contact us'). `spacing` is its top margin: the first line under the form stands further off.
 */
export function AuthCardLink({
  prompt,
  to,
  state,
  spacing = 'mt-2',
  children,
}: {
  prompt?: string;
  to: string;
  state?: unknown;
  spacing?: 'mt-2' | 'mt-4' | 'mt-6';
  children: ReactNode;
}) {
  return (
    <p className={`${spacing} text-center text-sm text-slate-700`}>
      {prompt && <>{prompt} </>}
      <Link to={to} state={state} className="font-semibold text-brand-800 underline underline-offset-4">
        {children}
      </Link>
    </p>
  );
}
