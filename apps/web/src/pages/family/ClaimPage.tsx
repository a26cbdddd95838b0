import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useFamilyClaimMutation, useFamilyPreviewClaimQuery } from '../../api/family';
import { errorMessage, httpStatus } from '../../api/errors';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';

const INVALID = 'This link is not valid: it may have expired, been replaced or already been used. Ask the person who sent it for a new one.';
const linkButton = 'inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800';

/**
 * /family/claim/:token, the link a guardian e-mailed to a family member of 13 or more: they choose a
 * password and get their own sign-in to the record kept for them (the account has the invited
 * address). Then they sign in, and are asked whether their guardian keeps access (/family/assent).
 */
export default function ClaimPage() {
  const { token = '' } = useParams();
  const { data, error, isLoading } = useFamilyPreviewClaimQuery({ token }, { skip: !token });
  const [claim, { isLoading: claiming }] = useFamilyClaimMutation();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<{ password?: string; again?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (isLoading) return <PageLoading label="Opening your invitation…" />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(password.length >= 8 ? {} : { password: 'Password must be at least 8 characters' }),
      ...(again === password ? {} : { again: 'The passwords do not match' }),
    };
    setProblem(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    try {
      const reply = await claim({ token, body: { password } }).unwrap();
      setDone(reply.message);
    } catch (reason) {
      setFailure(httpStatus(reason) === 404 ? INVALID : errorMessage(reason));
    }
  };

  const body = (() => {
    if (done) {
      return (
        <div className="space-y-4">
          <Notice>{done}</Notice>
          <Link to="/login?next=%2Ffamily%2Fassent" className={linkButton}>
            Sign in
          </Link>
        </div>
      );
    }
    if (!data) {
      const status = httpStatus(error);
      return <Notice tone="error">{status === 404 || status === 400 ? INVALID : `The invitation could not be opened. ${errorMessage(error)}`}</Notice>;
    }
    return (
      <div className="space-y-4">
        <p className="text-lg text-slate-800">
          Hello {data.patient_first_name}. {data.inviter_first_name} has kept your health record here, and invites you to your own sign-in to it.
        </p>
        <p className="text-sm text-slate-700">
          Your account&apos;s e-mail address will be <strong className="break-all">{data.email}</strong>. Once signed in, you can hide documents
          from your parents and caregivers, and choose whether they keep access.
        </p>
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          <TextField label="Choose a password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={problem.password} maxLength={100} />
          <TextField label="Type it again" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} error={problem.again} maxLength={100} />
          {failure && <Notice tone="error">{failure}</Notice>}
          <Button type="submit" loading={claiming}>
            Set up my sign-in
          </Button>
        </form>
      </div>
    );
  })();

  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Your own sign-in</h1>
      {body}
    </div>
  );
}
