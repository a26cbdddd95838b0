import { useState } from 'react';
import { Link } from 'react-router';
import { useFamilyAnswerAssentMutation, useFamilyAssentQuery } from '../../api/family';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';

const linkClass = 'font-semibold text-brand-800 underline underline-offset-4';

/** "Gina", "Gina and Carl", "Gina, Carl and Vic". */
function names(list: string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * /family/assent: after a teen's first sign-in (the claim page sends them here), whether their
 * guardian(s) and caregivers keep access to their record until they turn 18. Keeping it can be
 * changed later here; ending it is at once (their next request is refused) and they are told.
 */
export default function AssentPage() {
  const { data, error, isLoading, refetch } = useFamilyAssentQuery();
  const [answer, { isLoading: answering }] = useFamilyAnswerAssentMutation();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (isLoading) return <PageLoading label="Loading…" />;

  const send = async (keep: boolean) => {
    setConfirming(false);
    try {
      const reply = await answer({ body: { keep_access: keep } }).unwrap();
      setOutcome({
        tone: 'success',
        text: reply.status === 'declined' ? 'Done: nobody else has access to your record now. They have been told by e-mail.' : 'Done: they keep access until your 18th birthday. You can change this here at any time.',
      });
    } catch (failure) {
      setOutcome({ tone: 'error', text: errorMessage(failure) });
    }
  };

  const who = names((data?.proxies ?? []).map((p) => p.first_name));
  const body = (() => {
    if (!data) {
      return (
        <div className="space-y-4">
          <Notice tone="error">This could not be loaded. {errorMessage(error, '')}</Notice>
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      );
    }
    if (data.status === 'not-needed' || (data.status === 'declined' && data.proxies.length === 0)) {
      return (
        <p className="text-slate-700">
          {data.status === 'declined' ? 'You chose to keep your record to yourself: nobody else has access to it.' : 'Nobody else has access to your record as your guardian.'}{' '}
          <Link to="/" className={linkClass}>
            Go to your record
          </Link>
        </p>
      );
    }
    return (
      <div className="space-y-4">
        <p className="text-lg text-slate-800">
          {data.status === 'pending' ? (
            <>
              Until now, <strong>{who}</strong> kept your health record. Should they keep access to it?
            </>
          ) : (
            <>
              <strong>{who}</strong> can open your record until your 18th birthday, as you agreed.
            </>
          )}
        </p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>If they keep access, they see your documents and summary, except the documents you mark Private.</li>
          <li>If you end it, they can no longer open your record at all, from now on. You can invite someone again later from the Family page.</li>
        </ul>
        <div className="flex flex-col gap-3 sm:flex-row">
          {data.status === 'pending' && (
            <Button loading={answering} onClick={() => void send(true)}>
              Let them keep access
            </Button>
          )}
          <Button variant="danger" onClick={() => setConfirming(true)}>
            End their access
          </Button>
        </div>
      </div>
    );
  })();

  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Who can see your record</h1>
      {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
      {body}
      <Dialog
        open={confirming}
        title="End their access?"
        onClose={() => setConfirming(false)}
        closeLabel="Cancel"
        actions={
          <Button variant="danger" loading={answering} onClick={() => void send(false)}>
            End access
          </Button>
        }
      >
        <p>{who} will no longer be able to open your record, from their next request. They will be told by e-mail.</p>
      </Dialog>
    </div>
  );
}
