import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useFamilyAssentQuery, useFamilyClaimInviteMutation, type FamilyMember } from '../../api/family';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';

type Outcome = { tone: 'success' | 'error'; text: string } | null;

const ASSENT_WORDS: Record<NonNullable<FamilyMember['assent']>, string> = {
  pending: 'has not yet said whether you keep access',
  given: 'agreed that you keep access until their 18th birthday',
  declined: 'chose to keep their record to themself: your access has ended',
};

/** Whole years at `at` of someone born on `dateOfBirth` (YYYY-MM-DD). */
function ageOf(dateOfBirth: string | null, at = new Date()): number | null {
  const match = dateOfBirth ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth) : null;
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = at.getUTCFullYear() - y;
  if (at.getUTCMonth() + 1 < m || (at.getUTCMonth() + 1 === m && at.getUTCDate() < d)) age -= 1;
  return age;
}

/**
 * On /family, for a family member of 13 or more the user is guardian of: their own sign-in.
 * "Invite Leo to sign in" e-mails Leo a link to claim the record (their account keeps the record's
 * id); the state says invited, signed in, and Leo's answer about the guardian's access. From 18 the
 * same invitation lets the now-adult take over their record (for a while after the birthday).
 */
export function TeenSignIn({ member, firstName, onDone }: { member: FamilyMember; firstName: string; onDone: (outcome: Outcome) => void }) {
  const [send, { isLoading }] = useFamilyClaimInviteMutation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const age = ageOf(member.date_of_birth);
  if (age === null || age < 13) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError('Enter a valid e-mail address.');
      return;
    }
    setError(undefined);
    try {
      await send({ memberId: member.id, body: { email: address } }).unwrap();
      setEmail('');
      onDone({ tone: 'success', text: `${firstName} was sent a link to set up their own sign-in at ${address}.` });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const signIn = member.sign_in ?? 'none';
  return (
    <div className="mt-4 space-y-3 border-t border-slate-200 pt-4" aria-label={`${firstName}'s own sign-in`} role="group">
      <h3 className="text-base font-semibold text-slate-900">{firstName}&apos;s own sign-in</h3>
      {signIn === 'signed-in' ? (
        <p className="text-sm text-slate-700">
          {firstName} signs in with their own account.{' '}
          {member.assent ? <>They {ASSENT_WORDS[member.assent]}.</> : null}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {signIn === 'invited' ? `An invitation is waiting for ${firstName}: it can be sent again to replace it. ` : ''}
            {age < 18
              ? `${firstName} can have their own sign-in to this record. They can then hide documents from you, and choose whether you keep access until they turn 18.`
              : `${firstName} is 18: invite them to take over their record with their own sign-in.`}
          </p>
          <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3">
            <TextField
              label={`${firstName}'s e-mail`}
              type="email"
              inputMode="email"
              autoCapitalize="none"
              spellCheck={false}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={error}
              maxLength={320}
            />
            <Button type="submit" variant="secondary" loading={isLoading}>
              Invite {firstName} to sign in
            </Button>
          </form>
        </>
      )}
    </div>
  );
}

/** For a teen who signed in to their own record and has not yet said whether their guardian keeps access. */
export function AssentReminder() {
  const { data } = useFamilyAssentQuery();
  if (data?.status !== 'pending') return null;
  return (
    <Notice>
      Your guardian still has access to your record.{' '}
      <Link to="/family/assent" className="font-semibold underline underline-offset-4">
        Choose whether they keep it
      </Link>
    </Notice>
  );
}
