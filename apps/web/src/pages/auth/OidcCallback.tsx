import { useParams } from 'react-router';
import { useAuthLoginWithOidcMutation } from '../../api/api';
import { errorMessage, GENERIC_ERROR } from '../../api/errors';
import { readOidcCallback } from '../../session/oidc';
import { SignInCallback, type CallbackAnswer } from './SignInCallback';

/** Where an OpenID Connect provider sends the browser back: our server exchanges the code for our own session. */
export default function OidcCallback() {
  const { provider = '' } = useParams();
  const [loginWithOidc] = useAuthLoginWithOidcMutation();
  const read = (): CallbackAnswer => {
    const result = readOidcCallback(provider, window.location.search, window.location.origin);
    if (result.kind === 'failed') return { error: GENERIC_ERROR };
    return {
      next: result.next,
      exchange: () =>
        loginWithOidc({
          provider,
          body: { code: result.code, code_verifier: result.codeVerifier, nonce: result.nonce, redirect_uri: result.redirectUri },
        }).unwrap(),
      failure: (e) => errorMessage(e),
    };
  };
  return <SignInCallback label="Signing you in…" read={read} />;
}
