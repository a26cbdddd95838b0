import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { useAuthResetMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { AuthCard, AuthCardLink } from '../../components/AuthCard';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { PasswordField } from '../../components/fields';
import { PASSWORD_RULE, resetPasswordSchema, type ResetPasswordForm } from '../../forms/schemas';
import type { LoginNotice } from './Login';

export const PASSWORD_CHANGED = 'Your password has been changed. You can sign in with your new password.';

/**
 * /reset-password/:email/:token, the link of the reset e-mail (the router hands the e-mail segment
 * over URL-decoded). Success goes to /login with a notice: the user is not signed in, so "/" would
 * only show the landing page.
 */
export default function ResetPassword() {
  const { email = '', token = '' } = useParams();
  const [reset, { isLoading }] = useAuthResetMutation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', confirm_password: '' },
  });

  const onSubmit = handleSubmit(async (form) => {
    try {
      await reset({ body: { password: form.password, email, token } }).unwrap();
      const state: LoginNotice = { notice: PASSWORD_CHANGED, email };
      await navigate('/login', { state });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  return (
    <AuthCard
      title="Reset your password"
      subtitle={
        <>
          Choose a new password for <span className="font-semibold text-slate-800">{email}</span>.
        </>
      }
    >
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          hint={PASSWORD_RULE}
          error={formState.errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={formState.errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <Button type="submit" loading={isLoading} className="w-full">
          {isLoading ? 'Resetting…' : 'Reset Password'}
        </Button>
      </form>
      <AuthCardLink prompt="Link expired?" to="/forgot-password" spacing="mt-6">
        Ask for a new one
      </AuthCardLink>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </AuthCard>
  );
}
