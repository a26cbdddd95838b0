import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorDialog } from '../../components/Dialog';
import { PageLoading } from '../../components/PageLoading';
import { safeNext } from '../../session/next';
import { useSession, type TokenPair } from '../../session/use-session';

/** What a callback page makes of the provider's answer: an error to show, or how to exchange it for our own session. */
export type CallbackAnswer =
  | { error: string }
  | { next: string; exchange: () => Promise<TokenPair>; failure: (error: unknown) => string };

/**
 * Where a sign-in provider sends the browser back. Once: reads the provider's answer, takes it out of
 * the address bar, exchanges it for our own session and goes on to where the user was headed. An
 * error is shown in a dialog whose Ok leads back to the login page.
 */
export function SignInCallback({ label, read }: { label: string; read: () => CallbackAnswer }) {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const answer = read();
    window.history.replaceState(null, '', window.location.pathname); // the token or code leaves the address bar
    if ('error' in answer) return setError(answer.error);
    answer
      .exchange()
      .then((tokens) => {
        signIn(tokens);
        void navigate(safeNext(answer.next), { replace: true });
      })
      .catch((e: unknown) => setError(answer.failure(e)));
  }, [read, navigate, signIn]);

  return (
    <>
      <PageLoading label={label} />
      <ErrorDialog error={error} onClose={() => navigate('/login', { replace: true })} />
    </>
  );
}
