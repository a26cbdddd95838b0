import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAuthLoginWithOidcMutation } from '../../api/api';
import { errorMessage, GENERIC_ERROR } from '../../api/errors';
import { ErrorDialog } from '../../components/Dialog';
import { PageLoading } from '../../components/PageLoading';
import { readOidcCallback } from '../../session/oidc';
import { safeNext } from '../../session/next';
import { useSession } from '../../session/use-session';

/** Where an OpenID Connect provider sends the browser back: our server exchanges the code for our own session. */
export default function OidcCallback() {
  const { provider = '' } = useParams();
  const [loginWithOidc] = useAuthLoginWithOidcMutation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const result = readOidcCallback(provider, window.location.search, window.location.origin);
    window.history.replaceState(null, '', window.location.pathname); // the code leaves the address bar
    if (result.kind === 'failed') return setError(GENERIC_ERROR);
    loginWithOidc({ provider, body: { code: result.code, code_verifier: result.codeVerifier, nonce: result.nonce, redirect_uri: result.redirectUri } })
      .unwrap()
      .then((tokens) => {
        signIn(tokens);
        void navigate(safeNext(result.next), { replace: true });
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [loginWithOidc, navigate, provider, signIn]);

  return (
    <>
      <PageLoading label="Signing you in…" />
      <ErrorDialog error={error} onClose={() => navigate('/login', { replace: true })} />
    </>
  );
}
