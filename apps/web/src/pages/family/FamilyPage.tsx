import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  useFamilyAddDependantMutation,
  useFamilyInviteMutation,
  useFamilyOverviewQuery,
  useFamilyRemoveMemberMutation,
  useFamilyUpdateMemberMutation,
  useFamilyWithdrawInviteMutation,
  type FamilyInvite,
  type FamilyMember,
  type FamilyRecord,
} from '../../api/family';
import { errorMessage, httpStatus } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { ROLE_WORDS } from '../../components/Viewing';
import { viewingChanged } from '../../session/viewing-slice';
import { ROLE_HELP } from './roles';
import { AssentReminder, TeenSignIn } from './TeenSignIn';

const STATUS_WORDS: Record<FamilyMember['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const AGE_WORDS: Record<NonNullable<FamilyRecord['age_band']>, string> = {
  child: 'Child (under 13)',
  teen: 'Teen (13 to 17)',
  adult: 'Adult',
};

function day(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso.length === 10 ? `${iso}T12:00:00` : iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);
}

function When({ iso, fallback }: { iso: string | null; fallback: string }) {
  return iso ? <time dateTime={iso}>{day(iso)}</time> : <>{fallback}</>;
}

/** The user's own, or a child's: the records whose people, roles and invitations the user runs. */
const administers = (record: FamilyRecord) => record.my_role === 'owner' || record.my_role === 'guardian';

const card = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6';
const subheading = 'text-base font-semibold text-slate-900';

/** A confirmation dialog for a change that cannot be undone from here (revoke, remove, withdraw). */
function Confirm({ open, title, children, action, busy, onConfirm, onClose }: { open: boolean; title: string; children: React.ReactNode; action: string; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      closeLabel="Cancel"
      actions={
        <Button variant="danger" loading={busy} onClick={onConfirm}>
          {action}
        </Button>
      }
    >
      {children}
    </Dialog>
  );
}

/** The answer of the last change on the page, announced (a status, or an alert for a failure). */
type Outcome = { tone: 'success' | 'error'; text: string; plan?: boolean } | null;

function AddDependant({ onDone }: { onDone: (outcome: Outcome) => void }) {
  const [add, { isLoading }] = useFamilyAddDependantMutation();
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [birth, setBirth] = useState('');
  const [errors, setErrors] = useState<{ first?: string; last?: string; birth?: string }>({});
  const [refusal, setRefusal] = useState<{ text: string; plan: boolean } | null>(null);
  const today = new Date().toISOString().slice(0, 10);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(first.trim() ? {} : { first: 'First name is required' }),
      ...(last.trim() ? {} : { last: 'Last name is required' }),
      ...(/^\d{4}-\d{2}-\d{2}$/.test(birth) ? (birth > today ? { birth: 'Date of birth cannot be in the future.' } : {}) : { birth: 'Date of birth is required' }),
    };
    setErrors(found);
    setRefusal(null);
    if (Object.keys(found).length > 0) return;
    try {
      const record = await add({ body: { first_name: first.trim(), last_name: last.trim(), date_of_birth: birth } }).unwrap();
      setFirst('');
      setLast('');
      setBirth('');
      onDone({ tone: 'success', text: `${record.first_name} was added. Choose “Open ${record.first_name}'s record” to upload their documents.` });
    } catch (failure) {
      const status = httpStatus(failure);
      setRefusal({ text: errorMessage(failure), plan: status === 402 || status === 403 });
    }
  };

  return (
    <section aria-labelledby="add-dependant" className={card}>
      <h2 id="add-dependant" className="text-lg font-bold text-slate-900">
        Add a family member
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        For a child under 18 who has no sign-in of their own. They get a record of their own (documents, summary, share links, access
        history), which you manage as their guardian. Adults sign up themselves and can invite you as a caregiver.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 grid gap-4 sm:grid-cols-3">
        <TextField label="First name" autoComplete="off" value={first} onChange={(e) => setFirst(e.target.value)} error={errors.first} maxLength={100} />
        <TextField label="Last name" autoComplete="off" value={last} onChange={(e) => setLast(e.target.value)} error={errors.last} maxLength={100} />
        <TextField label="Date of birth" type="date" max={today} value={birth} onChange={(e) => setBirth(e.target.value)} error={errors.birth} />
        <div className="sm:col-span-3">
          <Button type="submit" loading={isLoading}>
            Add family member
          </Button>
        </div>
      </form>
      {refusal && (
        <div className="mt-4">
          <Notice tone="error">
            {/* The server's "See /membership." becomes the link below. */}
            {refusal.plan ? refusal.text.replace(/\s*see \/membership\.?\s*$/i, '') : refusal.text}{' '}
            {refusal.plan && (
              <Link to="/membership" className="font-semibold underline underline-offset-4">
                See the Family plan
              </Link>
            )}
          </Notice>
        </div>
      )}
    </section>
  );
}

function InviteForm({ record, onDone }: { record: FamilyRecord; onDone: (outcome: Outcome) => void }) {
  const [invite, { isLoading }] = useFamilyInviteMutation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'view' | 'manage' | 'guardian'>('view');
  // A guardian may invite a second guardian (a co-parent) to a child's record.
  const roles = record.kind === 'dependant' && record.my_role === 'guardian' && record.age_band !== 'adult' ? (['view', 'manage', 'guardian'] as const) : (['view', 'manage'] as const);
  const [error, setError] = useState<string | undefined>();
  const groupId = useId();
  const whose = record.kind === 'self' ? 'your record' : `${record.first_name}'s record`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError('Enter a valid e-mail address.');
      return;
    }
    setError(undefined);
    try {
      await invite({ body: { patient_id: record.patient_id, email: address, role } }).unwrap();
      setEmail('');
      onDone({ tone: 'success', text: `An invitation to ${whose} was sent to ${address}.` });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3" aria-label={`Invite a caregiver to ${whose}`}>
      <h3 className={subheading}>Invite a caregiver</h3>
      <TextField
        label="Caregiver's e-mail"
        type="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error}
        maxLength={320}
      />
      <fieldset aria-describedby={`${groupId}-help`}>
        <legend className="text-sm font-medium text-slate-800">What they may do</legend>
        <p id={`${groupId}-help`} className="sr-only">
          {roles.length === 3 ? 'Choose view, manage or guardian.' : 'Choose view or manage.'}
        </p>
        <div className="mt-1 space-y-2">
          {roles.map((value) => (
            <label key={value} className="flex cursor-pointer gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input type="radio" name={`${groupId}-role`} value={value} checked={role === value} onChange={() => setRole(value)} className="mt-1 h-4 w-4" />
              <span>
                <span className="block font-semibold text-slate-900">{ROLE_HELP[value].label}</span>
                <span className="block text-sm text-slate-700">{ROLE_HELP[value].help}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" variant="secondary" loading={isLoading}>
        Send invitation
      </Button>
    </form>
  );
}

function PendingInvites({ invites, onDone }: { invites: FamilyInvite[]; onDone: (outcome: Outcome) => void }) {
  const [withdraw, { isLoading }] = useFamilyWithdrawInviteMutation();
  const [asked, setAsked] = useState<FamilyInvite | null>(null);
  if (invites.length === 0) return null;
  const confirm = async () => {
    if (!asked) return;
    try {
      await withdraw({ inviteId: asked.id }).unwrap();
      onDone({ tone: 'success', text: `The invitation to ${asked.email} was withdrawn: its link no longer works.` });
    } catch (failure) {
      onDone({ tone: 'error', text: errorMessage(failure) });
    }
    setAsked(null);
  };
  return (
    <div>
      <h3 className={subheading}>Pending invitations</h3>
      <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {invites.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
            <div className="min-w-0">
              <p className="break-all font-medium text-slate-900">{item.email}</p>
              <p className="text-sm text-slate-700">
                {ROLE_HELP[item.role].label} · link valid until <When iso={item.expires_at} fallback="" />
              </p>
            </div>
            <Button variant="secondary" onClick={() => setAsked(item)}>
              Withdraw<span className="sr-only"> the invitation to {item.email}</span>
            </Button>
          </li>
        ))}
      </ul>
      <Confirm open={asked !== null} title="Withdraw this invitation?" action="Withdraw" busy={isLoading} onConfirm={() => void confirm()} onClose={() => setAsked(null)}>
        <p>The link sent to {asked?.email} will stop working at once.</p>
      </Confirm>
    </div>
  );
}

function Caregivers({ record, members, onDone }: { record: FamilyRecord; members: FamilyMember[]; onDone: (outcome: Outcome) => void }) {
  const [update, { isLoading: updating }] = useFamilyUpdateMemberMutation();
  const [remove, { isLoading: removing }] = useFamilyRemoveMemberMutation();
  const [asked, setAsked] = useState<FamilyMember | null>(null);
  const whose = record.kind === 'self' ? 'your record' : `${record.first_name}'s record`;
  const change = async (member: FamilyMember, body: { role?: 'view' | 'manage'; renew?: true }, done: string) => {
    try {
      await update({ memberId: member.id, body }).unwrap();
      onDone({ tone: 'success', text: done });
    } catch (failure) {
      onDone({ tone: 'error', text: errorMessage(failure) });
    }
  };
  const revoke = async () => {
    if (!asked) return;
    try {
      await remove({ memberId: asked.id }).unwrap();
      onDone({ tone: 'success', text: `${asked.name} no longer has access to ${whose}.` });
    } catch (failure) {
      onDone({ tone: 'error', text: errorMessage(failure) });
    }
    setAsked(null);
  };
  return (
    <div>
      <h3 className={subheading}>Caregivers</h3>
      {members.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">Nobody else has access to {whose}.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {members.map((member) => {
            const active = member.status === 'active';
            const other = member.role === 'view' ? 'manage' : 'view';
            return (
              <li key={member.id} className="space-y-2 p-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {member.name}
                    {member.email && <span className="block break-all text-sm font-normal text-slate-700">{member.email}</span>}
                  </p>
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
                    <dt>Role</dt>
                    <dd>{member.role === 'guardian' ? 'Guardian' : ROLE_HELP[member.role].label}</dd>
                    <dt>Status</dt>
                    <dd className={active ? '' : 'font-semibold text-red-800'}>{STATUS_WORDS[member.status]}</dd>
                    <dt>Last active</dt>
                    <dd>
                      <When iso={member.last_active_at} fallback="Not yet" />
                    </dd>
                    <dt>Access until</dt>
                    <dd>
                      <When iso={member.expires_at} fallback="No end date" />
                    </dd>
                  </dl>
                </div>
                {member.role === 'guardian' && member.first_guardian === false && member.status !== 'revoked' && (
                  <div className="flex flex-wrap gap-2">
                    <Button variant="danger" onClick={() => setAsked(member)}>
                      Revoke<span className="sr-only"> {member.name}&apos;s access</span>
                    </Button>
                  </div>
                )}
                {member.role !== 'guardian' && member.status !== 'revoked' && (
                  <div className="flex flex-wrap gap-2">
                    {active && (
                      <Button variant="secondary" loading={updating} onClick={() => void change(member, { role: other }, `${member.name} can now ${other === 'view' ? 'only view' : 'manage'} ${whose}.`)}>
                        {other === 'view' ? 'Change to view only' : 'Change to manage'}
                        <span className="sr-only"> for {member.name}</span>
                      </Button>
                    )}
                    {(member.expires_at || member.status === 'expired') && (
                      <Button variant="secondary" loading={updating} onClick={() => void change(member, { renew: true }, `${member.name}'s access was renewed.`)}>
                        Renew<span className="sr-only"> {member.name}&apos;s access</span>
                      </Button>
                    )}
                    <Button variant="danger" onClick={() => setAsked(member)}>
                      Revoke<span className="sr-only"> {member.name}&apos;s access</span>
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Confirm open={asked !== null} title="Revoke access?" action="Revoke" busy={removing} onConfirm={() => void revoke()} onClose={() => setAsked(null)}>
        <p>
          {asked?.name} will lose access to {whose} at once: their next request is refused.
        </p>
      </Confirm>
    </div>
  );
}

/** The guardian removes a child: their record is erased in every service. They type the first name to confirm. */
function RemoveDependant({ record, onDone }: { record: FamilyRecord; onDone: (outcome: Outcome) => void }) {
  const [remove, { isLoading }] = useFamilyRemoveMemberMutation();
  const dispatch = useAppDispatch();
  const viewed = useAppSelector((s) => s.viewing.record);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const same = (a: string) => a.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  const close = () => {
    setOpen(false);
    setTyped('');
    setError(undefined);
  };
  const confirm = async () => {
    if (same(typed) !== same(record.first_name)) {
      setError(typed.trim() ? `The name you typed does not match. Type ${record.first_name} to confirm.` : `Type ${record.first_name} to confirm.`);
      return;
    }
    try {
      const answer = await remove({ memberId: record.patient_id, body: { confirm_name: typed } }).unwrap();
      // The removed record was open in this tab: back to the user's own.
      if (viewed?.patient_id === record.patient_id) dispatch(viewingChanged(null));
      close();
      onDone({ tone: 'success', text: answer.message });
    } catch (failure) {
      if (httpStatus(failure) === 400) {
        setError(errorMessage(failure));
        return;
      }
      close();
      onDone({ tone: 'error', text: errorMessage(failure) });
    }
  };
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Remove {record.first_name}
      </Button>
      <Confirm open={open} title={`Remove ${record.first_name}?`} action="Remove" busy={isLoading} onConfirm={() => void confirm()} onClose={close}>
        <p>
          {record.first_name}&apos;s record is erased: their documents and files, summary, share links, wallet pass and hospital connections are
          deleted, and caregivers lose access at once. Their access history is kept as the law requires, but nobody can read it any more. This
          cannot be undone.
        </p>
        <TextField label={`Type ${record.first_name} to confirm`} autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} error={error} maxLength={100} />
      </Confirm>
    </>
  );
}

function RecordCard({ record, members, invites, dependant, onDone }: { record: FamilyRecord; members: FamilyMember[]; invites: FamilyInvite[]; dependant?: FamilyMember | undefined; onDone: (outcome: Outcome) => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const viewed = useAppSelector((s) => s.viewing.record);
  const headingId = useId();
  const isViewed = record.kind === 'self' ? viewed === null : viewed?.patient_id === record.patient_id;
  const open = () => {
    if (!isViewed) dispatch(viewingChanged(record.kind === 'self' ? null : { patient_id: record.patient_id, first_name: record.first_name, role: record.my_role }));
    void navigate('/');
  };
  const kind = record.kind === 'self' ? 'Your own record' : record.kind === 'dependant' ? 'Family member you added' : 'Shared with you';
  return (
    <li aria-labelledby={headingId} className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold text-slate-900">
            {record.first_name} {record.last_name}
          </h2>
          <p className="text-sm text-slate-700">
            {kind} · your role: {ROLE_WORDS[record.my_role]}
            {record.age_band && <> · {AGE_WORDS[record.age_band]}</>}
            {record.date_of_birth && (
              <>
                {' '}
                · born <When iso={record.date_of_birth} fallback="" />
              </>
            )}
          </p>
          {record.access_expires_at && (
            <p className="text-sm text-slate-700">
              {record.kind === 'dependant' ? (
                <>
                  Your access as guardian ends on <When iso={record.access_expires_at} fallback="" />, when {record.first_name} turns 18; then only{' '}
                  {record.first_name} can give it again.
                </>
              ) : (
                <>
                  Your access ends on <When iso={record.access_expires_at} fallback="" /> unless it is renewed.
                </>
              )}
            </p>
          )}
        </div>
        <Button variant={isViewed ? 'secondary' : 'primary'} onClick={open}>
          {record.kind === 'self' ? 'Open my record' : `Open ${record.first_name}'s record`}
        </Button>
      </div>
      {administers(record) && (
        <div className="mt-4 grid gap-6 border-t border-slate-200 pt-4 lg:grid-cols-2">
          <div className="space-y-4">
            <Caregivers record={record} members={members} onDone={onDone} />
            <PendingInvites invites={invites} onDone={onDone} />
          </div>
          <InviteForm record={record} onDone={onDone} />
        </div>
      )}
      {record.kind === 'dependant' && record.my_role === 'guardian' && dependant && <TeenSignIn member={dependant} firstName={record.first_name} onDone={onDone} />}
      {/* Removing (erasing) a child's record is for the guardian who added them: a co-parent sees the first guardian listed. */}
      {record.kind === 'dependant' && administers(record) && !members.some((m) => m.role === 'guardian' && m.first_guardian === true) && (
        <div className="mt-4 border-t border-slate-200 pt-2">
          <RemoveDependant record={record} onDone={onDone} />
        </div>
      )}
    </li>
  );
}

/** Family members who turned 18: the guardian's access has ended; for a while they may still be invited to take over their record. */
function CameOfAge({ members, onDone }: { members: FamilyMember[]; onDone: (outcome: Outcome) => void }) {
  if (members.length === 0) return null;
  return (
    <section aria-labelledby="came-of-age" className={card}>
      <h2 id="came-of-age" className="text-lg font-bold text-slate-900">
        Turned 18
      </h2>
      <p className="mt-1 text-sm text-slate-700">Your access to their record ended on their 18th birthday. Their record is theirs: invite them to sign in to it.</p>
      {members.map((member) => (
        <TeenSignIn key={member.id} member={member} firstName={member.name.split(' ')[0] ?? member.name} onDone={onDone} />
      ))}
    </section>
  );
}

/**
 * /family: the household (issue 30). The records the user may open (their own, the family members
 * they added, those shared with them), and for the ones they run: caregivers with their role,
 * status, last activity and expiry (change the role, renew, revoke), pending invitations
 * (withdraw), a new invitation by e-mail; adding a family member (the Family plan).
 */
export default function FamilyPage() {
  const { data, isLoading, error, refetch } = useFamilyOverviewQuery();
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (isLoading) return <PageLoading label="Loading your family…" />;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Family</h1>
        <p className="mt-2 text-slate-700">
          Keep your children&apos;s records next to yours, and let people you trust help with a record: a co-parent, or an adult child for an
          elderly parent. Everything a caregiver opens or changes is in the record&apos;s access history.
        </p>
      </div>
      {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
      <AssentReminder />
      {!data ? (
        <div className="space-y-4">
          <Notice tone="error">Your family could not be loaded. {errorMessage(error, '')}</Notice>
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <ul className="space-y-6" aria-label="Records you can open">
          {data.records.map((record) => (
            <RecordCard
              key={record.patient_id}
              record={record}
              members={data.members.filter((m) => m.kind === 'caregiver' && m.patient_id === record.patient_id)}
              invites={data.invites.filter((i) => i.patient_id === record.patient_id && i.status === 'pending')}
              dependant={data.members.find((m) => m.kind === 'dependant' && m.id === record.patient_id)}
              onDone={setOutcome}
            />
          ))}
        </ul>
      )}
      {data && <CameOfAge members={data.members.filter((m) => m.kind === 'dependant' && m.status === 'expired' && m.sign_in !== 'signed-in' && !data.records.some((r) => r.patient_id === m.id))} onDone={setOutcome} />}
      <AddDependant onDone={setOutcome} />
    </div>
  );
}
