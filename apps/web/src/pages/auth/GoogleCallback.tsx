import { useAuthLoginWithGoogleMutation } from '../../api/api';
import { GENERIC_ERROR } from '../../api/errors';
import { readGoogleCallback } from '../../session/google';
import { SignInCallback, type CallbackAnswer } from './SignInCallback';

/** Where Google sends the browser back: the token is exchanged for our own session. */
export default function GoogleCallback() {
  const [loginWithGoogle] = useAuthLoginWithGoogleMutation();
  const read = (): CallbackAnswer => {
    const result = readGoogleCallback(window.location.hash);
    if (result.kind === 'no-credential') return { error: 'Google login failed: No credential returned' };
    if (result.kind === 'failed') return { error: GENERIC_ERROR };
    return {
      next: result.next,
      exchange: () => loginWithGoogle({ body: { token: result.token } }).unwrap(),
      failure: () => GENERIC_ERROR,
    };
  };
  return <SignInCallback label="Signing you in with Google…" read={read} />;
}
