import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAuthResendOtpMutation, useAuthVerifyOtpMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { AuthCard } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { forgotPasswordSchema } from '../../forms/schemas';
import type { LoginNotice } from './Login';

/** What /login hands over: the e-mail to verify and, after a 403, the server's message. */
export interface OtpVerifyState {
  email?: string;
  error?: string;
}

export const RESEND_SECONDS = 30;
export const CODE_LENGTH = 4;
export const CODE_MAX_LENGTH = 6;
/** How long 'Verified!' stays on screen before the login page. */
export const VERIFIED_PAUSE_MS = 1000;
export const VERIFIED_NOTICE = 'Your e-mail address is verified. You can sign in now.';

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
 * characters, and Verify is enabled only at exactly 4. A failed code is cleared silently for a retry.
 * Without an e-mail in the navigation state (the page opened directly) an e-mail field is shown.
 */
export default function OtpVerify() {
  const state = (useLocation().state ?? {}) as OtpVerifyState;
  const navigate = useNavigate();
  const [verifyOtp] = useAuthVerifyOtpMutation();
  const [resendOtp, { isLoading: resending }] = useAuthResendOtpMutation();

  const knownEmail = state.email?.trim() ?? '';
  const [typedEmail, setTypedEmail] = useState('');
  const [emailTouched, setEmailTouched] = useState(false);
  const emailCheck = forgotPasswordSchema.shape.email.safeParse(typedEmail);
  const emailError =
    !knownEmail && emailTouched && !emailCheck.success ? emailCheck.error.issues[0]?.message : undefined;

  const [code, setCode] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [verifiedEmail, setVerifiedEmail] = useState('');
  const [focused, setFocused] = useState(false);
  const [error, setError] = useState<string | null>(state.error ?? null);
  const [resent, setResent] = useState<string | null>(null);
  const [deadline, setDeadline] = useState(() => Date.now() + RESEND_SECONDS * 1000);
  const secondsLeft = useSecondsLeft(deadline);
  const codeInput = useRef<HTMLInputElement>(null);
  const codeId = useId();

  useEffect(() => {
    if (phase !== 'verified') return;
    const timer = setTimeout(() => {
      const next: LoginNotice = { notice: VERIFIED_NOTICE, email: verifiedEmail };
      void navigate('/login', { state: next });
    }, VERIFIED_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [phase, verifiedEmail, navigate]);

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
    try {
      await verifyOtp({ verifyOtpBodyDoc: { email: to, otp: code } }).unwrap();
      setVerifiedEmail(to);
      setPhase('verified');
    } catch {
      // Spec: any failure clears the code silently; the user types it again (or asks for a new one).
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
      const reply = await resendOtp({ emailBodyDoc: { email: to } }).unwrap();
      setResent(reply.message);
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
        knownEmail ? (
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
      <div aria-live="polite">
        {resent !== null && (
          <div className="mb-4">
            <Notice>{resent}</Notice>
          </div>
        )}
      </div>
      <form onSubmit={onVerify} className="space-y-5" noValidate>
        {!knownEmail && (
          <TextField
            label="Email Address"
            type="text"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
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
              aria-describedby={`${codeId}-hint`}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_MAX_LENGTH))}
              className="absolute inset-0 h-full w-full cursor-text rounded-lg bg-transparent text-transparent caret-transparent selection:bg-transparent"
            />
          </div>
          <p id={`${codeId}-hint`} className="text-sm text-slate-600">
            The 4 digits from the e-mail.
          </p>
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
        {secondsLeft > 0 ? (
          <p>{`Resend code in ${secondsLeft}s`}</p>
        ) : (
          <Button variant="ghost" loading={resending} onClick={() => void onResend()}>
            Resend Code
          </Button>
        )}
      </div>
      <p className="mt-4 text-center text-sm text-slate-700">
        <Link
          to="/login"
          state={knownEmail ? { email: knownEmail } : undefined}
          className="font-semibold text-brand-800 underline underline-offset-4"
        >
          Back to Login
        </Link>
      </p>
      <p className="mt-2 text-center text-sm text-slate-700">
        No code?{' '}
        <Link to="/contact" className="font-semibold text-brand-800 underline underline-offset-4">
          Contact us
        </Link>
      </p>
      <Dialog open={error !== null} title="Error" tone="error" onClose={() => setError(null)}>
        <p>{error}</p>
      </Dialog>
    </AuthCard>
  );
}
