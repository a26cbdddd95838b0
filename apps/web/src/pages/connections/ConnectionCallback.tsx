import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLazyConnectionsCallbackQuery } from '../../api/connections';
import { errorMessage } from '../../api/errors';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import type { ConnectionsPageState } from './ConnectionsPage';

/** The hospital's refusal (OAuth 2.0 `error`) in plain words. */
export function refusalMessage(error: string, description: string | null): string {
  if (error === 'access_denied') return 'You did not approve the connection at the hospital or clinic, so nothing was connected.';
  const detail = description?.trim() ? `: ${description.trim().slice(0, 300)}` : '';
  return `The hospital or clinic could not connect (${error.slice(0, 100)})${detail}. Nothing was connected; you can try again.`;
}

/**
 * Where a hospital's sign-in sends the browser back (the SMART redirect URI, /connections/callback):
 * hands `code` and `state` (or the hospital's `error`) to GET /api/connections/callback/ with the
 * patient's session, then goes to the connections page with a success message. A state is used
 * once, so the call is made once.
 */
export default function ConnectionCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [finish] = useLazyConnectionsCallbackQuery();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const state = params.get('state');
    const code = params.get('code');
    const refused = params.get('error');
    if (refused) {
      setFailure(refusalMessage(refused, params.get('error_description')));
      // The service marks the started sign-in as used and records the refusal.
      if (state) void finish({ state, error: refused.slice(0, 200) });
      return;
    }
    if (!state || !code) {
      setFailure("This page finishes connecting a hospital or clinic, but the hospital's answer is missing from its address. Please start connecting again.");
      return;
    }
    finish({ state, code })
      .unwrap()
      .then((connection) => navigate('/connections', { replace: true, state: { connected: connection.name } satisfies ConnectionsPageState }))
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [finish, navigate, params]);

  if (!failure) return <PageLoading label="Finishing connecting your hospital or clinic…" />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">The hospital or clinic was not connected</h1>
      <div className="mt-6">
        <Notice tone="error">{failure}</Notice>
      </div>
      <Link
        to="/connections"
        className="mt-6 inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        Back to your connections
      </Link>
    </div>
  );
}
