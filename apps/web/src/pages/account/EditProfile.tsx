import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useProfileChangePasswordMutation, useProfileGetQuery, useProfilePictureUploadMutation, useProfileUpdateMutation } from '../../api/api';
import { serverMessage } from '../../api/errors';
import type { Profile } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { PasswordField, TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { PASSWORD_RULE, profileSchema, type ProfileForm } from '../../forms/account-schemas';
import { Avatar } from './Avatar';
import { LiveMessage, type Message } from './LiveMessage';

/** The picture types the server accepts (it checks the content too). */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

const card = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8';
const sectionHeading = 'text-lg font-semibold text-slate-900';

/** A server reply's `detail`, else its `message` (the password change answers with both). */
function detailOrMessage(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string' && data.detail) return data.detail;
  }
  return serverMessage(error);
}

interface ChosenPicture {
  file: File;
  /** An object URL for the local preview; revoked when the choice changes or the page goes. */
  url: string;
}

/** Profile picture and personal information: one form, saved together by Save Changes. */
function ProfileSection({ profile }: { profile: Profile }) {
  const [updateProfile] = useProfileUpdateMutation();
  const [uploadPicture] = useProfilePictureUploadMutation();
  const loaded = useMemo<ProfileForm>(
    () => ({ first_name: profile.first_name, last_name: profile.last_name ?? '', phone: profile.phone }),
    [profile.first_name, profile.last_name, profile.phone],
  );
  const { register, handleSubmit, reset, formState } = useForm<ProfileForm>({
    resolver: zodResolver(profileSchema),
    mode: 'onTouched',
    // The loaded profile is the form's clean state: a newer profile (after saving) resets the form.
    values: loaded,
  });
  const [picture, setPicture] = useState<ChosenPicture | null>(null);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!picture) return;
    const { url } = picture;
    return () => URL.revokeObjectURL(url);
  }, [picture]);

  const dirty = formState.isDirty || picture !== null;

  const choosePicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setMessage(null);
    if (!PICTURE_TYPES.includes(file.type)) {
      setPictureError('Please choose a PNG, JPEG, WebP or GIF image.');
      event.target.value = '';
      return;
    }
    setPictureError(null);
    setPicture({ file, url: URL.createObjectURL(file) });
  };

  const clearPicture = () => {
    setPicture(null);
    setPictureError(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const cancel = () => {
    reset(loaded);
    clearPicture();
    setMessage(null);
  };

  const onSubmit = handleSubmit(async (form) => {
    setSaving(true);
    setMessage(null);
    try {
      // Only what changed is sent: unchanged fields are not re-saved, the picture only when chosen.
      if (formState.isDirty) {
        await updateProfile({ body: { first_name: form.first_name, last_name: form.last_name, phone: form.phone } }).unwrap();
        reset(form);
      }
      if (picture) {
        await uploadPicture({ body: { picture: picture.file } }).unwrap();
        clearPicture();
      }
      setMessage({ tone: 'success', text: 'Profile updated successfully' });
    } catch (failure) {
      setMessage({ tone: 'error', text: 'Failed to update profile', detail: serverMessage(failure) });
    } finally {
      setSaving(false);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <section aria-labelledby="picture-heading" className={card}>
        <h2 id="picture-heading" className={sectionHeading}>
          Profile picture
        </h2>
        <div className="mt-4 flex flex-col items-center gap-5 sm:flex-row sm:items-start">
          <Avatar
            src={picture?.url ?? profile.profile_picture}
            name={profile.first_name || profile.email}
            alt={picture ? 'Preview of your new profile picture' : 'Your profile picture'}
          />
          <div className="w-full space-y-2 text-center sm:text-left">
            <input
              ref={fileInput}
              id="profile-picture"
              type="file"
              accept={PICTURE_TYPES.join(',')}
              onChange={choosePicture}
              aria-describedby={`profile-picture-hint${pictureError ? ' profile-picture-error' : ''}`}
              className="peer sr-only"
            />
            <label
              htmlFor="profile-picture"
              className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
            >
              {picture || profile.profile_picture ? 'Choose a new picture' : 'Choose a picture'}
            </label>
            <p id="profile-picture-hint" className="text-sm text-slate-600">
              Images only (PNG, JPEG, WebP or GIF), recommended 400x400px.
            </p>
            {picture && (
              <p className="break-words text-sm text-slate-800">
                <span className="font-semibold">{picture.file.name}</span> will be uploaded when you save your changes.
              </p>
            )}
            {pictureError && (
              <p id="profile-picture-error" role="alert" className="text-sm font-medium text-red-700">
                {pictureError}
              </p>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="personal-heading" className={card}>
        <h2 id="personal-heading" className={sectionHeading}>
          Personal information
        </h2>
        {profile.provider && (
          // The verified name is locked to the licence.
          <p className="mt-2 text-sm text-amber-900">
            Your name matches your medical license ({profile.provider.display_name}). Changing your first or last name ends your provider
            status: you would verify your license again under the new name.
          </p>
        )}
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="First Name" autoComplete="given-name" error={formState.errors.first_name?.message} {...register('first_name')} />
          <TextField label="Last Name" autoComplete="family-name" error={formState.errors.last_name?.message} {...register('last_name')} />
          <TextField label="Phone" type="tel" autoComplete="tel" hint="With the country code, e.g. +44 20 7946 0958." error={formState.errors.phone?.message} {...register('phone')} />
          <TextField
            label="Email"
            type="email"
            value={profile.email}
            readOnly
            hint={
              <>
                Email cannot be changed.{' '}
                <Link to="/contact" className="font-semibold text-brand-800 underline underline-offset-4">
                  Contact support
                </Link>{' '}
                if you need to update it.
              </>
            }
          />
        </div>
      </section>

      <div className="space-y-4">
        <LiveMessage message={message} />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={cancel} disabled={!dirty || saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={!dirty} loading={saving}>
            Save Changes
          </Button>
        </div>
      </div>
    </form>
  );
}

/** Update Password: PUT /api/change/password/; the server checks the current password. */
function PasswordSection({ email }: { email: string }) {
  const [changePassword, { isLoading }] = useProfileChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<Message | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!current || !next) return;
    setMessage(null);
    try {
      const reply = await changePassword({ body: { old_password: current, new_password: next } }).unwrap();
      setMessage({ tone: 'success', text: reply.detail || 'Password updated successfully' });
      setCurrent('');
      setNext('');
    } catch (failure) {
      setMessage({ tone: 'error', text: detailOrMessage(failure) ?? 'Failed to update password' });
    }
  };

  return (
    <section aria-labelledby="password-heading" className={card}>
      <h2 id="password-heading" className={sectionHeading}>
        Update Password
      </h2>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-4 space-y-4">
        {/* Tells password managers which account this password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField label="Current password" name="current-password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          <PasswordField label="New password" name="new-password" autoComplete="new-password" hint={PASSWORD_RULE} value={next} onChange={(e) => setNext(e.target.value)} />
        </div>
        <LiveMessage message={message} />
        <div className="flex sm:justify-end">
          <Button type="submit" disabled={!current || !next} loading={isLoading} className="w-full sm:w-auto">
            Update Password
          </Button>
        </div>
      </form>
    </section>
  );
}

/** /edit-profile, 'User Settings': picture, personal information and password of the signed-in user. */
export default function EditProfile() {
  const { data: profile, isError, refetch } = useProfileGetQuery();
  if (!profile) {
    if (!isError) return <PageLoading label="Loading your settings…" />;
    return (
      <div className="mx-auto max-w-3xl space-y-4 px-4 py-8 sm:py-12">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">User Settings</h1>
        <Notice tone="error">Your profile could not be loaded.</Notice>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">User Settings</h1>
      <ProfileSection profile={profile} />
      <PasswordSection email={profile.email} />
    </div>
  );
}
