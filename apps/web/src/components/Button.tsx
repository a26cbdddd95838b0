import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';
import { useHydrated } from './use-hydrated';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

const styles: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-500',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400',
  ghost: 'text-brand-800 hover:bg-brand-50 disabled:text-slate-500',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /** Shows a spinner and disables the button (a request is in flight). */
  loading?: boolean;
}

export function Button({ variant = 'primary', loading = false, disabled, className = '', children, type = 'button', ...rest }: ButtonProps) {
  // In a prerendered page, a submit button stays disabled until the app has taken the page over:
  // before that, the browser would submit the form itself (a GET with the fields in the address).
  const hydrated = useHydrated();
  return (
    <button
      type={type}
      disabled={disabled || loading || (type === 'submit' && !hydrated)}
      aria-busy={loading || undefined}
      className={`inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed ${styles[variant]} ${className}`}
      {...rest}
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
}
