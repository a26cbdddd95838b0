import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useProfileGetQuery, useProvidersRequestMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useSession } from '../../session/use-session';

type Outcome = { tone: 'info' | 'success' | 'error'; text: string; patientId?: string | null } | null;

/**
 * The summary page's 'Are you a Doctor?' box. For a verified provider on a shared
 * summary, 'View past medical history' asks the patient for the documents behind it
 * (POST /api/providers/access-requests/); everyone else is told what to do first. On a passcode
 * link it sends the view token the page got when the passcode was entered: the link asks for it.
 */
export function DoctorBox({ shareId, viewToken }: { shareId: string | null; viewToken?: string | undefined }) {
  const { authenticated } = useSession();
  const { pathname } = useLocation();
  const { data: profile, isLoading: profileLoading } = useProfileGetQuery(undefined, { skip: !authenticated });
  const [request, requesting] = useProvidersRequestMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const isProvider = Boolean(profile?.roles?.includes('provider'));

  async function view() {
    if (!shareId) {
      setOutcome({ tone: 'info', text: "This is a sample. On a summary a patient shares with you, this button asks the patient to let you see their documents." });
      return;
    }
    if (!authenticated) {
      setOutcome({ tone: 'info', text: 'Log in with your verified doctor account, then press the button again.' });
      return;
    }
    if (!isProvider) {
      setOutcome({ tone: 'info', text: 'Only doctors with a verified license can ask for documents. Verify your license first.' });
      return;
    }
    try {
      const reply = await request({ body: { share_id: shareId, ...(viewToken ? { view_token: viewToken } : {}) } }).unwrap();
      setOutcome({ tone: 'success', text: reply.message, patientId: reply.patient_id });
    } catch (failure) {
      setOutcome({ tone: 'error', text: errorMessage(failure) });
    }
  }

  const link = 'font-semibold text-brand-800 underline underline-offset-2';
  return (
    <section aria-labelledby="doctor-box" className="mt-6 rounded-2xl bg-brand-50 p-5 ring-1 ring-brand-200 print:hidden">
      <h2 id="doctor-box" className="text-lg font-bold text-slate-900">
        Are you a Doctor?
      </h2>
      <p className="mt-1 text-sm text-slate-800">
        Verified doctors can ask the patient to see the documents this summary was made from. The patient decides, and
        sees every look.
      </p>
      <Button className="mt-3" onClick={() => void view()} loading={requesting.isLoading || profileLoading}>
        View past medical history
      </Button>
      {outcome && (
        <div role={outcome.tone === 'error' ? 'alert' : 'status'} className={`mt-3 text-sm ${outcome.tone === 'error' ? 'text-red-700' : 'text-slate-900'}`}>
          <p className={outcome.tone === 'success' ? 'font-semibold text-green-800' : ''}>{outcome.text}</p>
          {outcome.patientId && (
            <Link to={`/providers/patients/${outcome.patientId}`} className={link}>
              Open the patient&apos;s documents
            </Link>
          )}
          {outcome.tone === 'info' && shareId && !authenticated && (
            <Link to={`/login?next=${encodeURIComponent(pathname)}`} className={link}>
              Log in
            </Link>
          )}
          {outcome.tone === 'info' && shareId && authenticated && !isProvider && (
            <Link to="/medical-license" className={link}>
              Verify your license
            </Link>
          )}
        </div>
      )}
    </section>
  );
}
