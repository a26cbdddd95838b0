import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useFamilyAcceptInviteMutation, useFamilyPreviewInviteQuery, type FamilyRecord } from '../../api/family';
import { errorMessage, httpStatus } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { viewingChanged } from '../../session/viewing-slice';
import { ROLE_HELP } from './roles';

const INVALID = 'This invitation is not valid: it may have expired, been withdrawn or already been used. Ask the person who sent it for a new one.';

const linkButton = 'inline-flex min-h-11 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold';

function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(date);
}

/**
 * /family/invite/:token, the link of an invitation e-mail: who invites you to whose record, with
 * which role (GET /api/family/invites/{token}/, public). Signed out: sign in or sign up, then back
 * here (?next=). Signed in: Accept, and the record joins the "Viewing" menu.
 */
export default function InvitePage() {
  const { token = '' } = useParams();
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const { data, error, isLoading } = useFamilyPreviewInviteQuery({ token }, { skip: !token });
  const [accept, { isLoading: accepting }] = useFamilyAcceptInviteMutation();
  const [accepted, setAccepted] = useState<FamilyRecord | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const here = `/family/invite/${encodeURIComponent(token)}`;

  if (isLoading) return <PageLoading label="Opening the invitation…" />;

  const body = (() => {
    if (accepted) {
      const open = () => {
        dispatch(viewingChanged({ patient_id: accepted.patient_id, first_name: accepted.first_name, role: accepted.my_role }));
        void navigate('/');
      };
      return (
        <div className="space-y-4">
          <Notice>
            You now have access to {accepted.first_name}&apos;s record. Choose it any time in the “Viewing” menu at the top of the page.
          </Notice>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button onClick={open}>Open {accepted.first_name}&apos;s record</Button>
            <Link to="/family" className={`${linkButton} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}>
              Go to Family
            </Link>
          </div>
        </div>
      );
    }
    if (!data) {
      const status = httpStatus(error);
      return <Notice tone="error">{status === 404 || status === 400 ? INVALID : `The invitation could not be opened. ${errorMessage(error)}`}</Notice>;
    }
    const role = ROLE_HELP[data.role];
    return (
      <div className="space-y-4">
        <p className="text-lg text-slate-800">
          <strong>{data.inviter_first_name}</strong> invites you to help with <strong>{data.patient_first_name}&apos;s</strong> health record.
        </p>
        <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <p className="font-semibold text-slate-900">Role: {role.label}</p>
          <p className="text-sm text-slate-700">{role.help}</p>
          <p className="mt-2 text-sm text-slate-700">
            This invitation is valid until <time dateTime={data.expires_at}>{day(data.expires_at)}</time>.
          </p>
        </div>
        <p className="text-sm text-slate-700">Everything you open or change in {data.patient_first_name}&apos;s record is shown in its access history.</p>
        {failure && <Notice tone="error">{failure}</Notice>}
        {authenticated ? (
          <Button
            loading={accepting}
            onClick={() => {
              setFailure(null);
              accept({ token })
                .unwrap()
                .then(setAccepted, (reason: unknown) => setFailure(httpStatus(reason) === 404 ? INVALID : errorMessage(reason)));
            }}
          >
            Accept invitation
          </Button>
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to={`/login?next=${encodeURIComponent(here)}`} className={`${linkButton} bg-brand-700 text-white hover:bg-brand-800`}>
              Sign in to accept
            </Link>
            <Link to={`/sign-up?next=${encodeURIComponent(here)}`} className={`${linkButton} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}>
              Create an account
            </Link>
          </div>
        )}
      </div>
    );
  })();

  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Invitation to a family record</h1>
      {body}
    </div>
  );
}
