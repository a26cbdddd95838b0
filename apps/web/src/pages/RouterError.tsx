import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Shown when a page fails to load or render (section 2 "Router failure screen"). */
export function RouterError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'The page could not be shown.';
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center gap-4 px-6">
      <h1 className="text-2xl font-bold text-red-800">Unexpected Application Error!</h1>
      <p className="text-slate-700">{detail} Please reload the page; if it happens again, contact support.</p>
      <div className="flex gap-3">
        <button type="button" onClick={() => window.location.reload()} className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
          Reload
        </button>
        <Link to="/" reloadDocument className="rounded-lg border border-slate-300 px-4 py-2 font-semibold text-slate-800">
          Go to the home page
        </Link>
      </div>
    </main>
  );
}
