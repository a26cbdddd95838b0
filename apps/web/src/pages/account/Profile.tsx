import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useBillingMembershipQuery, useProfileGetQuery, useProfileUpdateMutation } from '../../api/api';
import type { MembershipView, Profile } from '@medfolio/contracts';
import { TextField } from '../../components/fields';
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

type Gender = NonNullable<Profile['gender']> | '';

const GENDER_LABELS: Record<string, string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  undisclosed: 'Prefer not to say',
};

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const longDate = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso));

/** The plan rows: plan, price and period, autopay and the next payment, from billing. */
function PlanRows({ membership }: { membership: MembershipView | undefined }) {
  if (!membership) return <Row label="Plan">Loading…</Row>;
  const period = membership.mode === 'yearly' ? 'Year' : 'Month';
  return (
    <>
      <Row label="Plan">
        {membership.plan_name}
        {membership.price_cents > 0 && (
          <span className="ml-2 text-slate-700">{`${usd(membership.price_cents)} per ${period}`}</span>
        )}
        <Link to="/membership" className="ml-2 font-semibold text-brand-800 underline underline-offset-4">
          {membership.plan === 'free' ? 'Compare plans' : 'Change plan'}
        </Link>
      </Row>
      {membership.status !== 'none' && (
        <>
          <Row label="Autopay">
            {membership.autopay
              ? 'On'
              : membership.cancel_at_period_end
                ? 'Off: the plan ends at the end of the period'
                : 'Off'}
          </Row>
          <Row label={membership.autopay ? 'Next payment' : 'Plan ends'}>
            {membership.current_period_end ? (
              <time dateTime={membership.current_period_end}>{longDate(membership.current_period_end)}</time>
            ) : (
              'Not known yet'
            )}
          </Row>
        </>
      )}
      {membership.granted_until && <Row label="Referral reward">Basic until {longDate(membership.granted_until)}</Row>}
    </>
  );
}

/** Gender and birthday, edited in place and saved through PUT /api/profile/ (Save / Cancel). */
function PersonalRows({ profile }: { profile: Profile }) {
  const [editing, setEditing] = useState(false);
  const genderId = useId();
  const [gender, setGender] = useState<Gender>(profile.gender ?? '');
  const [birthday, setBirthday] = useState(profile.date_of_birth ?? '');
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [update, { isLoading }] = useProfileUpdateMutation();
  const cancel = () => {
    setGender(profile.gender ?? '');
    setBirthday(profile.date_of_birth ?? '');
    setEditing(false);
  };
  const save = async () => {
    try {
      await update({
        body: {
          first_name: profile.first_name,
          last_name: profile.last_name,
          phone: profile.phone,
          gender,
          ...(birthday ? { date_of_birth: birthday } : {}),
        },
      }).unwrap();
      setResult({ tone: 'success', text: 'Profile updated successfully' });
      setEditing(false);
    } catch {
      setResult({ tone: 'error', text: 'Failed to update profile' });
    }
  };
  if (editing) {
    return (
      <div className="py-4">
        <dt className="sr-only">Gender and birthday</dt>
        <dd className="space-y-3">
          <div>
            <label htmlFor={genderId} className="block text-sm font-medium text-slate-800">
              Gender
            </label>
            <select
              id={genderId}
              value={gender}
              onChange={(e) => setGender(e.target.value as Gender)}
              className="mt-1 min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-slate-900"
            >
              <option value="">Not given</option>
              {Object.entries(GENDER_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <TextField label="Birthday" type="date" value={birthday} onChange={(e) => setBirthday(e.target.value)} />
          <div className="flex gap-2">
            <Button variant="secondary" onClick={cancel}>
              Cancel
            </Button>
            <Button loading={isLoading} onClick={() => void save()}>
              Save
            </Button>
          </div>
        </dd>
      </div>
    );
  }
  return (
    <>
      <Row label="Gender">
        {profile.gender ? GENDER_LABELS[profile.gender] : <span className="text-slate-600">Not given</span>}
      </Row>
      <Row label="Birthday">
        {profile.date_of_birth ? (
          <time dateTime={profile.date_of_birth}>{formatDateOfBirth(profile.date_of_birth)}</time>
        ) : (
          <span className="text-slate-600">Not given</span>
        )}
      </Row>
      <div className="py-3">
        <dt className="sr-only">Change gender and birthday</dt>
        <dd>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit gender and birthday
          </Button>
          {result && (
            <div className="mt-2">
              <Notice tone={result.tone}>{result.text}</Notice>
            </div>
          )}
        </dd>
      </div>
    </>
  );
}

/**
 * /profile: the signed-in user's real profile (GET /api/profile/) with gender and birthday edited
 * in place, and their plan from billing (price and period, autopay, next payment).
 */
export default function Profile() {
  const { user } = useSession();
  const { data, isError, refetch } = useProfileGetQuery();
  const { data: membership } = useBillingMembershipQuery();
  const profile: (Omit<Profile, 'date_of_birth' | 'email_verified' | 'roles' | 'provider' | 'gender'> & Partial<Profile>) | null =
    data ?? user;

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
      <section
        aria-labelledby="profile-name"
        className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
      >
        <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
          <Avatar src={profile.profile_picture} name={profile.first_name || profile.email} alt="Your profile picture" />
          <div className="min-w-0 flex-1">
            <h2 id="profile-name" className="break-words text-xl font-bold text-slate-900">
              {fullName || profile.email}
            </h2>
            <p className="break-words text-slate-600">{profile.email}</p>
            <p className="mt-2 inline-flex rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">
              {membership ? `${membership.plan_name} plan` : 'Plan…'}
            </p>
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
            {profile.email_verified && (
              <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
                Verified
              </span>
            )}
          </Row>
          <Row label="Phone">{profile.phone || <span className="text-slate-600">Not given</span>}</Row>
          {data ? (
            <PersonalRows key={`${data.gender}-${data.date_of_birth}`} profile={data} />
          ) : (
            profile.date_of_birth && (
              <Row label="Birthday">
                <time dateTime={profile.date_of_birth}>{formatDateOfBirth(profile.date_of_birth)}</time>
              </Row>
            )
          )}
          {data?.provider ? (
            <Row label="Medical license">
              {data.provider.verification === 'verified' ? (
                <span className="rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-800">Verified provider</span>
              ) : (
                <Link to="/medical-license" className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 underline underline-offset-2">
                  {data.provider.review === 'disputed' ? 'Self-attested provider: claim disputed' : 'Self-attested provider (review pending)'}
                </Link>
              )}{' '}
              {data.provider.display_name}
              {data.provider.credential && `, ${data.provider.credential}`}
              {data.provider.specialty && ` · ${data.provider.specialty}`}
              {data.provider.state && ` (${data.provider.state})`}
              <Link to="/providers/patients" className="ml-2 font-semibold text-brand-800 underline underline-offset-4">
                Your patients
              </Link>
            </Row>
          ) : (
            <Row label="Medical license">
              <span className="text-slate-600">Not verified</span>
              <Link to="/medical-license" className="ml-2 font-semibold text-brand-800 underline underline-offset-4">
                I am a doctor
              </Link>
            </Row>
          )}
          <Row label="Doctors' access">
            <Link to="/providers/access" className="font-semibold text-brand-800 underline underline-offset-4">
              Requests and doctors who can see your documents
            </Link>
          </Row>
          <PlanRows membership={membership} />
        </dl>
      </section>
    </div>
  );
}
