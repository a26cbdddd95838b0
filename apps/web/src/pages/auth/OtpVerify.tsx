import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAuthResendOtpMutation, useAuthVerifyOtpMutation } from '../../api/api';
import { useSession, type TokenPair } from '../../session/use-session';
import { safeNext } from '../../session/next';
import { errorMessage } from '../../api/errors';
import { AuthCard, AuthCardLink } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { EmailField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { forgotPasswordSchema } from '../../forms/schemas';
import type { LoginNotice } from './Login';

/**
 * What other pages hand over: the e-mail to verify and, from /login after a 403, the server's
 * message (shown as an explanation on the page: an unverified account is a normal step, not an error).
 */
export interface OtpVerifyState {
  email?: string;
  error?: string;
  /**
   * From /login after a 403 STEP_UP_REQUIRED: the code is a sign-in code (the password was right but
   * the device is new while the account sees many failed sign-ins); verifying it signs in. No resend:
   * signing in again sends a new one.
   */
  stepUp?: boolean;
}

export const RESEND_SECONDS = 30;
export const CODE_LENGTH = 4;
export const CODE_MAX_LENGTH = 6;
/** How long 'Verified!' stays on screen before the login page. */
export const VERIFIED_PAUSE_MS = 1000;
export const VERIFIED_NOTICE = 'Your e-mail address is verified. You can sign in now.';
/** The server allows this many wrong tries per code (identity's MAX_WRONG_TRIES). */
export const TRIES_PER_CODE = 5;
export const NEW_CODE_NEEDED = 'This code can no longer be used. Press Resend Code below to get a new one by e-mail.';
export const NEW_SIGN_IN_CODE_NEEDED = 'This code can no longer be used. Sign in again to get a new one by e-mail.';
export const STEP_UP_HINT = 'No code after a minute? Check the address and password on the login page: the code is sent only when both are right.';

type Phase = 'idle' | 'verifying' | 'verified';

/** Seconds left until `deadline`, re-read every quarter second (a throttled tab catches up). */
function useSecondsLeft(deadline: number): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(deadline));
  useEffect(() => {
    setSeconds(secondsUntil(deadline));
    const timer = setInterval(() => {
      const left = secondsUntil(deadline);
      setSeconds(left);
      if (left === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return seconds;
}

function secondsUntil(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/**
 * /otp-verify: the 4-digit code e-mailed at sign-up (and on "Resend Code"). One text input (what
 * assistive technology and one-time-code autofill expect) drawn as four slots; it accepts up to 6
 * characters, and Verify is enabled only at exactly 4. A refused code is cleared for a retry (the
 * spec), with the server's reason under the boxes; once the code's tries are used up, the page says a
 * new one is needed and points at Resend Code. A verification that signs in (the server hands out a
 * session with it) goes home; otherwise to /login with the e-mail filled in.
 * Without an e-mail in the navigation state (the page opened directly) an e-mail field is shown.
 */
export default function OtpVerify() {
  const state = (useLocation().state ?? {}) as OtpVerifyState;
  const navigate = useNavigate();
  // Where to go once signed in (?next=, e.g. an invitation's page), kept from /login.
  const next = safeNext(useSearchParams()[0].get('next'));
  const [verifyOtp] = useAuthVerifyOtpMutation();
  const [resendOtp, { isLoading: resending }] = useAuthResendOtpMutation();

  const knownEmail = state.email?.trim() ?? '';
  const stepUp = state.stepUp === true && knownEmail !== '';
  const [typedEmail, setTypedEmail] = useState('');
  const [emailTouched, setEmailTouched] = useState(false);
  const emailCheck = forgotPasswordSchema.shape.email.safeParse(typedEmail);
  const emailError =
    !knownEmail && emailTouched && !emailCheck.success ? emailCheck.error.issues[0]?.message : undefined;

  const [code, setCode] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [verifiedEmail, setVerifiedEmail] = useState('');
  const [focused, setFocused] = useState(false);
  const { signIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [wrongTries, setWrongTries] = useState(0);
  const [session, setSession] = useState<TokenPair | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const [deadline, setDeadline] = useState(() => Date.now() + RESEND_SECONDS * 1000);
  const secondsLeft = useSecondsLeft(deadline);
  const codeInput = useRef<HTMLInputElement>(null);
  const codeId = useId();

  useEffect(() => {
    if (phase !== 'verified') return;
    const timer = setTimeout(() => {
      // Signed in by the verification: the guest-only route then takes the user home.
      if (session) {
        signIn(session);
        return;
      }
      const notice: LoginNotice = { notice: VERIFIED_NOTICE, email: verifiedEmail };
      void navigate(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, { state: notice });
    }, VERIFIED_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [phase, verifiedEmail, session, signIn, navigate, next]);

  /** The e-mail to use, or undefined after showing the field's message. */
  const emailOrComplain = (): string | undefined => {
    if (knownEmail) return knownEmail;
    setEmailTouched(true);
    return emailCheck.success ? emailCheck.data : undefined;
  };

  const onVerify = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH || phase !== 'idle') return;
    const to = emailOrComplain();
    if (!to) return;
    setPhase('verifying');
    setRefusal(null);
    try {
      const reply = await verifyOtp({ body: { email: to, otp: code } }).unwrap();
      setVerifiedEmail(to);
      if (reply.access && reply.refresh) setSession({ access: reply.access, refresh: reply.refresh });
      setPhase('verified');
    } catch (failure) {
      // Spec: a refused code is cleared for the next try. Added: the server's reason, under the boxes.
      const tries = wrongTries + 1;
      setWrongTries(tries);
      setRefusal(tries >= TRIES_PER_CODE ? `${errorMessage(failure)} ${stepUp ? NEW_SIGN_IN_CODE_NEEDED : NEW_CODE_NEEDED}` : errorMessage(failure));
      setCode('');
      setPhase('idle');
      codeInput.current?.focus();
    }
  };

  const onResend = async () => {
    const to = emailOrComplain();
    if (!to) return;
    setResent(null);
    try {
      const reply = await resendOtp({ body: { email: to } }).unwrap();
      setResent(reply.message);
      setRefusal(null);
      setWrongTries(0);
      setDeadline(Date.now() + RESEND_SECONDS * 1000);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const slots = Math.max(CODE_LENGTH, code.length);
  const label = phase === 'verifying' ? 'Verifying...' : phase === 'verified' ? 'Verified!' : 'Verify';

  return (
    <AuthCard
      title="Verification Code"
      subtitle={
        stepUp ? (
          <>
            To finish signing in, enter the 4-digit code we sent to your e-mail address{' '}
            <span className="font-semibold break-all text-slate-800">{knownEmail}</span>.
          </>
        ) : knownEmail ? (
          <>
            We sent a 4-digit code to your e-mail address{' '}
            <span className="font-semibold break-all text-slate-800">{knownEmail}</span>. Enter it below to verify your
            account.
          </>
        ) : (
          <>
            We sent a 4-digit code to your e-mail address. Enter the address and the code below to verify your account.
          </>
        )
      }
    >
      {state.error && (
        <div className="mb-4">
          <Notice tone="info">
            {stepUp
              ? `${state.error} ${STEP_UP_HINT}`
              : `${state.error} Your account exists; it only needs this step once. No e-mail? Resend Code below sends a new code.`}
          </Notice>
        </div>
      )}
      <div aria-live="polite">
        {resent !== null && (
          <div className="mb-4">
            <Notice>{resent}</Notice>
          </div>
        )}
      </div>
      <form onSubmit={onVerify} className="space-y-5" noValidate>
        {!knownEmail && (
          <EmailField
            value={typedEmail}
            onChange={(event) => setTypedEmail(event.target.value)}
            onBlur={() => setEmailTouched(true)}
            error={emailError}
          />
        )}
        <div className="space-y-2">
          <label htmlFor={codeId} className="block text-sm font-medium text-slate-800">
            Verification code
          </label>
          <div className="relative w-fit">
            <div className="flex gap-2 sm:gap-3" aria-hidden="true">
              {Array.from({ length: slots }, (_, i) => (
                <span
                  key={i}
                  className={`flex h-14 w-12 items-center justify-center rounded-lg border-2 bg-white text-2xl font-semibold text-slate-900 sm:h-16 sm:w-14 ${
                    focused && phase === 'idle' && i === Math.min(code.length, slots - 1)
                      ? 'border-brand-700'
                      : 'border-slate-400'
                  }`}
                >
                  {code[i] ?? ''}
                </span>
              ))}
            </div>
            <input
              ref={codeInput}
              id={codeId}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={CODE_MAX_LENGTH}
              value={code}
              readOnly={phase !== 'idle'}
              onFocus={() => setFocused(true)}
              onBlur={() => setFocused(false)}
              aria-describedby={refusal ? `${codeId}-hint ${codeId}-error` : `${codeId}-hint`}
              aria-invalid={refusal !== null}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_MAX_LENGTH))}
              className="absolute inset-0 h-full w-full cursor-text rounded-lg bg-transparent text-transparent caret-transparent selection:bg-transparent"
            />
          </div>
          <p id={`${codeId}-hint`} className="text-sm text-slate-600">
            The 4 digits from the e-mail.
          </p>
          {refusal && (
            <p id={`${codeId}-error`} role="alert" className="text-sm font-medium text-red-700">
              {refusal}
            </p>
          )}
        </div>
        <Button
          type="submit"
          className="w-full"
          loading={phase === 'verifying'}
          disabled={code.length !== CODE_LENGTH || phase === 'verified'}
        >
          {label}
        </Button>
      </form>
      <div className="mt-6 flex min-h-11 items-center justify-center text-sm text-slate-700">
        {stepUp ? (
          <p>A new code? Sign in again from the login page.</p>
        ) : secondsLeft > 0 ? (
          <p>{`Resend code in ${secondsLeft}s`}</p>
        ) : (
          <Button variant="ghost" loading={resending} onClick={() => void onResend()}>
            Resend Code
          </Button>
        )}
      </div>
      <AuthCardLink to="/login" state={knownEmail ? { email: knownEmail } : undefined} spacing="mt-4">
        Back to Login
      </AuthCardLink>
      <AuthCardLink prompt="No code?" to="/contact">
        Contact us
      </AuthCardLink>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </AuthCard>
  );
}
