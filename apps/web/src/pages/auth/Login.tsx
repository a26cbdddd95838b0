import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAuthLoginMutation } from '../../api/api';
import { errorMessage, httpStatus, serverCode } from '../../api/errors';
import { AuthCard, AuthCardLink } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { PasswordField, TextField } from '../../components/fields';
import { GoogleButton } from '../../components/GoogleButton';
import { OidcButtons } from '../../components/OidcButtons';
import { Notice } from '../../components/Notice';
import { loginSchema, type LoginForm } from '../../forms/schemas';
import { safeNext } from '../../session/next';
import { useSession } from '../../session/use-session';
import type { OtpVerifyState } from './OtpVerify';

/** Messages other pages hand to the login page (after sign-up, verification, a reset). */
export interface LoginNotice {
  notice?: string;
  email?: string;
}

/**
 * /login: on success the tokens are stored and the user goes to ?next= (default "/"); a 403
 * (e-mail not verified yet) goes to /otp-verify with the e-mail, where the error dialog shows.
 * A 403 STEP_UP_REQUIRED (a new device while the account sees many failed sign-ins) goes there too,
 * for the sign-in code the server e-mailed: the page then finishes the sign-in.
 */
export default function Login() {
  const [login, { isLoading }] = useAuthLoginMutation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = (useLocation().state ?? {}) as LoginNotice;
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(loginSchema),
    mode: 'onTouched',
    defaultValues: { email: state.email ?? '', password: '' },
  });
  const next = safeNext(params.get('next'));

  const onSubmit = handleSubmit(async (form) => {
    try {
      signIn(await login({ body: form }).unwrap());
    } catch (failure) {
      if (httpStatus(failure) === 403) {
        const stepUp = serverCode(failure) === 'STEP_UP_REQUIRED';
        const state: OtpVerifyState = { email: form.email, error: errorMessage(failure), ...(stepUp ? { stepUp: true } : {}) };
        // The way back (?next=, e.g. an invitation's page) goes through the verification too.
        await navigate(next === '/' ? '/otp-verify' : `/otp-verify?next=${encodeURIComponent(next)}`, { state });
        return;
      }
      setError(errorMessage(failure));
    }
  });

  return (
    <AuthCard title="Welcome Back!" subtitle="Sign in to your Medfolio account.">
      {state.notice && (
        <div className="mb-4">
          <Notice>{state.notice}</Notice>
        </div>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextField label="Email Address" type="text" inputMode="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
        <PasswordField label="Password" autoComplete="current-password" error={formState.errors.password?.message} {...register('password')} />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-semibold text-brand-800 underline-offset-4 hover:underline">
            Forgot Password?
          </Link>
        </div>
        <Button type="submit" loading={isLoading} className="w-full">
          {isLoading ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      <GoogleButton next={next} />
      <OidcButtons next={next} />
      <AuthCardLink prompt="New to Medfolio?" to={next === '/' ? '/sign-up' : `/sign-up?next=${encodeURIComponent(next)}`} spacing="mt-6">
        Create an account
      </AuthCardLink>
      <AuthCardLink prompt="Need help?" to="/contact">
        Contact us
      </AuthCardLink>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </AuthCard>
  );
}
