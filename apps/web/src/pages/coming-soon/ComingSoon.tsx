import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface ComingSoonProps {
  /** What the page will be, e.g. 'Your medical summary'. */
  title: string;
  /** What it will do, and what the user can do meanwhile. */
  children: ReactNode;
  /** Where to go instead. */
  links: { to: string; label: string }[];
}

/**
 * The page behind a button whose feature has not landed yet: it says what is coming, instead of a
 * silent redirect home. Each such route is its own small file (this folder) and one line in the
 * router; the feature's own page replaces that line.
 */
export function ComingSoon({ title, children, links }: ComingSoonProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-800">Coming soon</p>
      <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
      <div className="mt-4 space-y-3 text-slate-700">{children}</div>
      <ul className="mt-8 flex flex-wrap gap-3">
        {links.map((link, i) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className={`inline-flex min-h-11 items-center rounded-lg px-4 py-2 text-sm font-semibold ${
                i === 0 ? 'bg-brand-700 text-white hover:bg-brand-800' : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
              }`}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
