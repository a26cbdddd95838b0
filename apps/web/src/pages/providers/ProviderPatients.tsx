import { Link } from 'react-router';
import { useProvidersPatientsQuery } from '../../api/api';
import { errorMessage, httpStatus } from '../../api/errors';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** /providers/patients: a verified doctor's patients who let them see their documents now. */
export default function ProviderPatients() {
  const { data, isLoading, error } = useProvidersPatientsQuery();
  if (isLoading) return <PageLoading label="Loading your patients…" />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Your patients</h1>
      <p className="mt-2 text-slate-700">Patients who let you see their documents. Access ends when they choose, and they see every look.</p>
      {error && (
        <div className="mt-4">
          <Notice tone="error">
            {httpStatus(error) === 403 ? (
              <>
                Only doctors with a verified license have patients here.{' '}
                <Link to="/medical-license" className="font-semibold underline underline-offset-2">
                  Verify your license
                </Link>
              </>
            ) : (
              errorMessage(error)
            )}
          </Notice>
        </div>
      )}
      {data && data.length === 0 && <p className="mt-6 text-slate-700">No patient has shared their documents with you yet. Open a summary a patient shared and press &lsquo;View past medical history&rsquo;.</p>}
      <ul className="mt-6 space-y-3">
        {data?.map((patient) => (
          <li key={patient.patient_id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <Link to={`/providers/patients/${patient.patient_id}`} className="text-lg font-semibold text-brand-800 underline underline-offset-2">
              {patient.first_name || 'Patient'}
            </Link>
            <p className="text-sm text-slate-700">Access until {formatDate(patient.expires_at)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
