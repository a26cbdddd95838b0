import type { ReactNode } from 'react';

/** A link inside running text on the public text pages (privacy policy, terms, FAQ). */
export const linkClass = 'font-semibold text-brand-800 underline underline-offset-4';

/** One titled part of a legal page. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="text-xl font-bold text-slate-900">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  );
}

/** The privacy policy and terms: a titled article with an introduction, then its sections. */
export function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">{intro}</p>
      {children}
    </article>
  );
}
