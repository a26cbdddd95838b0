import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useContactSubmitMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ErrorDialog } from '../../components/Dialog';
import { TextAreaField, TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { contactSchema, type ContactForm } from '../../forms/schemas';
import type { CurrentUser } from '../../session/session-slice';
import { useSession } from '../../session/use-session';

/** What the gateway answers when the reply carries no text of its own. */
const SENT = 'Thank you! Your message has been sent.';

/** "4 hours", "1 hour", "2 days": the answer time a reply promises. */
export function answerTime(hours: number): string {
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The confirmation: the server's text, then when support answers (sooner on plans with priority support). */
export function confirmation(reply: { message?: string; priority?: boolean; answer_within_hours?: number }): string {
  const sent = reply.message || SENT;
  const hours = reply.answer_within_hours;
  if (typeof hours !== 'number' || !(hours > 0)) return sent;
  return reply.priority
    ? `${sent} Your plan includes priority support: your message is marked priority and we answer within ${answerTime(hours)}.`
    : `${sent} We answer within ${answerTime(hours)}.`;
}

const prefill = (user: CurrentUser | null): ContactForm => ({
  firstname: user?.first_name ?? '',
  lastname: user?.last_name ?? '',
  email: user?.email ?? '',
  message: '',
});

/**
 * /contact: the message goes to support (POST /api/contact/). Errors show for touched fields only;
 * a signed-in user finds their names and e-mail filled in.
 */
export default function Contact() {
  const { user } = useSession();
  const [submit, { isLoading }] = useContactSubmitMutation();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState, getValues, setValue, reset } = useForm<ContactForm>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: prefill(user),
  });

  // The user may load after the page opens: fill in what is still empty, never over what was typed.
  useEffect(() => {
    if (!user) return;
    const values = prefill(user);
    for (const field of ['firstname', 'lastname', 'email'] as const) {
      if (!getValues(field) && values[field]) setValue(field, values[field]);
    }
  }, [user, getValues, setValue]);

  const onSubmit = handleSubmit(async (form) => {
    setSent(null);
    try {
      const reply = await submit({ body: form }).unwrap();
      reset(prefill(user));
      setSent(confirmation(reply));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  const { errors } = formState;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Contact Us</h1>
      <p className="mt-2 text-lg text-slate-700">
        Have something in mind you need help with? We’d love to hear your thoughts!
      </p>
      <div className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        {sent && (
          <div className="mb-6">
            <Notice>{sent}</Notice>
          </div>
        )}
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="First Name"
              autoComplete="given-name"
              error={errors.firstname?.message}
              {...register('firstname')}
            />
            <TextField
              label="Last Name"
              autoComplete="family-name"
              error={errors.lastname?.message}
              {...register('lastname')}
            />
          </div>
          <TextField
            label="Email Address"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <TextAreaField label="Messages" rows={5} error={errors.message?.message} {...register('message')} />
          <Button type="submit" loading={isLoading} className="w-full sm:w-auto">
            {isLoading ? 'Sending…' : 'Send Message'}
          </Button>
        </form>
      </div>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </div>
  );
}
