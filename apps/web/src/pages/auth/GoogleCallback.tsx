import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuthLoginWithGoogleMutation } from '../../api/api';
import { GENERIC_ERROR } from '../../api/errors';
import { ErrorDialog } from '../../components/Dialog';
import { PageLoading } from '../../components/PageLoading';
import { readGoogleCallback } from '../../session/google';
import { safeNext } from '../../session/next';
import { useSession } from '../../session/use-session';

/** Where Google sends the browser back: the token is exchanged for our own session. */
export default function GoogleCallback() {
  const [loginWithGoogle] = useAuthLoginWithGoogleMutation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const result = readGoogleCallback(window.location.hash);
    window.history.replaceState(null, '', window.location.pathname); // the token leaves the address bar
    if (result.kind === 'no-credential') return setError('Google login failed: No credential returned');
    if (result.kind === 'failed') return setError(GENERIC_ERROR);
    loginWithGoogle({ body: { token: result.token } })
      .unwrap()
      .then((tokens) => {
        signIn(tokens);
        void navigate(safeNext(result.next), { replace: true });
      })
      .catch(() => setError(GENERIC_ERROR));
  }, [loginWithGoogle, navigate, signIn]);

  return (
    <>
      <PageLoading label="Signing you in with Google…" />
      <ErrorDialog error={error} onClose={() => navigate('/login', { replace: true })} />
    </>
  );
}
