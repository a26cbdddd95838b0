import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAuthForgotMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { AuthCard, AuthCardLink } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { EmailField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { forgotPasswordSchema, type ForgotPasswordForm } from '../../forms/schemas';

/** What the page says once the request is accepted. */
export function resetLinkSent(email: string): string {
  return `Check your e-mail: if an account exists for ${email}, we sent it a link to reset your password. The link opens the page where you choose a new one.`;
}

/**
 * /forgot-password. The server e-mails the reset link (/reset-password/{email}/{token}) and never
 * returns the token, so success cannot go to the reset route itself: the user stays here and is told
 * to check their e-mail.
 */
export default function ForgotPassword() {
  const [forgot, { isLoading }] = useAuthForgotMutation();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ForgotPasswordForm>({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async (form) => {
    setSentTo(null);
    try {
      await forgot({ body: { email: form.email } }).unwrap();
      setSentTo(form.email);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  return (
    <AuthCard
      title="Forgot Password"
      subtitle="Enter the e-mail address of your account. We will send a link to reset your password to that e-mail address."
    >
      {/* A live region present from the start, so the success message is announced when it appears. */}
      <div aria-live="polite">
        {sentTo !== null && (
          <div className="mb-4">
            <Notice>{resetLinkSent(sentTo)}</Notice>
          </div>
        )}
      </div>
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <EmailField
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" loading={isLoading} className="w-full">
          {isLoading ? 'Submitting…' : 'Submit'}
        </Button>
      </form>
      <AuthCardLink prompt="Remembered it?" to="/login" spacing="mt-6">
        Back to sign in
      </AuthCardLink>
      <AuthCardLink prompt="Need help?" to="/contact">
        Contact us
      </AuthCardLink>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </AuthCard>
  );
}
