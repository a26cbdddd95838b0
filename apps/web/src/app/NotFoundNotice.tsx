import { Navigate, useLocation, useNavigate } from 'react-router';
import { Notice } from '../components/Notice';
import { useHydrated } from '../components/use-hydrated';

/** What the fallback leaves in the home page's history entry: the address that was asked for. */
interface NotFoundState {
  notFound: string;
}

function notFoundPath(state: unknown): string | null {
  const value = (state as Partial<NotFoundState> | null)?.notFound;
  return typeof value === 'string' && value ? value : null;
}

/**
 * The route for any unknown address (section 2: it falls back to the home screen). It still goes
 * home, and says which address it came from, so the home page can tell the visitor (NotFoundNotice).
 */
export function FallbackHome() {
  const { pathname, search } = useLocation();
  return <Navigate to="/" replace state={{ notFound: `${pathname}${search}` } satisfies NotFoundState} />;
}

/**
 * A brief notice on the home page after the fallback: the address asked for does not exist. Shown
 * once the page runs (never in prerendered markup); Dismiss, or going anywhere else, removes it.
 */
export function NotFoundNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const path = notFoundPath(location.state);
  if (!hydrated || !path) return null;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4">
      <Notice tone="info">
        <div className="flex items-start justify-between gap-3">
          <p className="min-w-0 break-words">
            There is no page at <span className="font-semibold break-all">{path}</span>, so here is the home page.
          </p>
          <button
            type="button"
            onClick={() => void navigate('/', { replace: true, state: null })}
            className="-my-2 inline-flex min-h-11 shrink-0 items-center rounded-lg px-3 text-sm font-semibold text-brand-800 hover:bg-brand-50"
          >
            Dismiss
          </button>
        </div>
      </Notice>
    </div>
  );
}
