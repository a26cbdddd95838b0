import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAuthRegisterMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { AuthCard, AuthCardLink } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { EmailField, PasswordField, SelectField, TextField } from '../../components/fields';
import { GoogleButton } from '../../components/GoogleButton';
import { OidcButtons } from '../../components/OidcButtons';
import { PASSWORD_RULE, signUpSchema, type SignUpForm } from '../../forms/account-schemas';
import { dateOfBirth, dateOptions, daysIn, splitName } from '../../forms/schemas';
import type { LoginNotice } from './Login';
import { safeNext } from '../../session/next';

/**
 * The notice the login page shows after a sign-up. The server answers a taken address as a new one
 * (it e-mails that address's owner instead of a code), so the notice covers both.
 */
export function signedUpNotice(email: string): string {
  return `Your account has been created. We sent a 4-digit code to ${email}: sign in, then enter the code to verify your account. If you already had an account with this address, we e-mailed you instead: sign in with your password, or reset it.`;
}

const blank: SignUpForm = {
  name: '',
  phone: '',
  email: '',
  month: '',
  day: '',
  year: '',
  password: '',
  confirm_password: '',
};

/**
 * /sign-up. The terms checkbox is required by the browser (the HTML `required` attribute, so the form
 * keeps native validation); every other rule is the schema's, with the spec's messages, shown once a
 * field is touched. Success goes to /login, which says a code was e-mailed and pre-fills the address.
 */
export default function SignUp() {
  const [registerAccount, { isLoading }] = useAuthRegisterMutation();
  const navigate = useNavigate();
  // A friend's invitation link (/sign-up?ref=CODE): the code goes with the sign-up (referrals).
  const [params] = useSearchParams();
  const ref = params.get('ref')?.trim().slice(0, 32) || undefined;
  // Where to go once signed in (an invitation's page): kept through /login and the verification.
  const next = safeNext(params.get('next'));
  const [error, setError] = useState<string | null>(null);
  const [{ months, years }] = useState(() => dateOptions());
  const { register, handleSubmit, formState, watch, setValue, getValues } = useForm<SignUpForm>({
    resolver: zodResolver(signUpSchema),
    mode: 'onTouched',
    defaultValues: blank,
  });
  const errors = formState.errors;
  // Only the days the chosen month has in the chosen year (no 31 April, no 29 February 1987).
  const days = daysIn(watch('month'), watch('year'));
  const dayGone = !days.includes(getValues('day'));
  useEffect(() => {
    if (dayGone && getValues('day')) setValue('day', '', { shouldValidate: formState.isSubmitted });
  }, [dayGone, getValues, setValue, formState.isSubmitted]);

  const onSubmit = handleSubmit(async (form) => {
    try {
      await registerAccount({
        body: {
          ...splitName(form.name),
          phone: form.phone,
          email: form.email,
          password: form.password,
          date_of_birth: dateOfBirth(form),
          ...(ref ? { ref } : {}),
        },
      }).unwrap();
      const state: LoginNotice = { notice: signedUpNotice(form.email), email: form.email };
      await navigate(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, { state });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  return (
    <AuthCard title="Create your account" subtitle="Your Medical History at your grasp.">
      <form onSubmit={onSubmit} className="space-y-4">
        <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
        <EmailField
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Mobile Number"
          type="tel"
          autoComplete="tel"
          hint="With the country code, e.g. +44 20 7946 0958."
          error={errors.phone?.message}
          {...register('phone')}
        />
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-slate-800">Date of birth</legend>
          <div className="grid grid-cols-3 gap-3">
            <SelectField
              label="Month"
              placeholder="MM"
              options={months}
              autoComplete="bday-month"
              error={errors.month?.message}
              {...register('month')}
            />
            <SelectField
              label="Day"
              placeholder="DD"
              options={days}
              autoComplete="bday-day"
              error={errors.day?.message}
              {...register('day')}
            />
            <SelectField
              label="Year"
              placeholder="YYYY"
              options={years}
              autoComplete="bday-year"
              error={errors.year?.message}
              {...register('year')}
            />
          </div>
        </fieldset>
        <PasswordField
          label="Password"
          autoComplete="new-password"
          hint={PASSWORD_RULE}
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <div className="flex min-h-11 items-center gap-3">
          <input
            id="sign-up-terms"
            type="checkbox"
            name="terms"
            required
            className="h-6 w-6 shrink-0 accent-brand-700"
          />
          <label htmlFor="sign-up-terms" className="py-2 text-sm text-slate-800">
            I agree to the{' '}
            <Link
              to="/terms"
              target="_blank"
              rel="noopener"
              className="font-semibold text-brand-800 underline underline-offset-4"
            >
              Terms of Service
              <span className="sr-only"> (opens in a new tab)</span>
            </Link>
          </label>
        </div>
        <Button type="submit" loading={isLoading} className="w-full">
          {isLoading ? 'Signing up…' : 'Sign up'}
        </Button>
      </form>
      <GoogleButton />
      <OidcButtons />
      <AuthCardLink prompt="Already have an account?" to="/login" spacing="mt-6">
        Sign in
      </AuthCardLink>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </AuthCard>
  );
}
