import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useProfileGetQuery } from '../../api/api';
import type { ProfileDoc } from '../../api/generated';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { useSession } from '../../session/use-session';
import { Avatar } from './Avatar';

/** A YYYY-MM-DD date as the reader's locale writes it (a calendar date: no time zone shift). */
export function formatDateOfBirth(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(parsed);
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-4 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 break-words text-slate-900 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

/**
 * /profile: the signed-in user's real profile (GET /api/profile/), read-only, with the way to
 * change it. Every user is on the Free plan until billing exists.
 */
export default function Profile() {
  const { user } = useSession();
  const { data, isError, refetch } = useProfileGetQuery();
  const profile: (Omit<ProfileDoc, 'date_of_birth' | 'email_verified'> & Partial<ProfileDoc>) | null = data ?? user;

  if (!profile) {
    if (!isError) return <PageLoading label="Loading your profile…" />;
    return (
      <div className="mx-auto max-w-3xl space-y-4 px-4 py-8 sm:py-12">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Profile</h1>
        <Notice tone="error">Your profile could not be loaded.</Notice>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const fullName = [profile.first_name, profile.last_name].filter(Boolean).join(' ');
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Profile</h1>
      <section aria-labelledby="profile-name" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
          <Avatar src={profile.profile_picture} name={profile.first_name || profile.email} alt="Your profile picture" />
          <div className="min-w-0 flex-1">
            <h2 id="profile-name" className="break-words text-xl font-bold text-slate-900">
              {fullName || profile.email}
            </h2>
            <p className="break-words text-slate-600">{profile.email}</p>
            <p className="mt-2 inline-flex rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">Free plan</p>
          </div>
          <Link
            to="/edit-profile"
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Edit profile
          </Link>
        </div>
        <dl className="mt-6 divide-y divide-slate-200 border-t border-slate-200">
          <Row label="Full name">{fullName || <span className="text-slate-600">Not given</span>}</Row>
          <Row label="Email">
            {profile.email}
            {profile.email_verified && <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">Verified</span>}
          </Row>
          <Row label="Phone">{profile.phone || <span className="text-slate-600">Not given</span>}</Row>
          {profile.date_of_birth && (
            <Row label="Date of birth">
              <time dateTime={profile.date_of_birth}>{formatDateOfBirth(profile.date_of_birth)}</time>
            </Row>
          )}
          <Row label="Plan">
            Free{' '}
            <Link to="/membership" className="ml-2 font-semibold text-brand-800 underline underline-offset-4">
              Compare plans
            </Link>
          </Row>
        </dl>
      </section>
    </div>
  );
}
