import type { SummaryItem } from '../../api/summary';

/** A date of birth (YYYY, YYYY-MM or YYYY-MM-DD) as people read it, the same day wherever the reader is. */
export function formatBirthDate(value: string): string {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value.trim());
  if (!match) return value;
  const [, year, month, day] = match;
  if (!month) return year ?? value;
  const date = new Date(`${year}-${month}-${day ?? '01'}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(undefined, day ? { dateStyle: 'long', timeZone: 'UTC' } : { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * Whose summary it is, at the top of the page so a clinician (and a printout) can tell:
 * the patient's name and date of birth; or, on a link the patient made anonymous, that they chose not
 * to show them; or, when they could not be loaded just now, that too (never a guess).
 */
export function PatientLine({ summary }: { summary: SummaryItem }) {
  const { patient, shared } = summary;
  if (patient) {
    return (
      <dl data-testid="patient-identity" className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-slate-900">
        <div className="flex gap-2">
          <dt className="text-slate-600">Patient</dt>
          <dd className="font-semibold">{patient.name || 'No name given'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-600">Date of birth</dt>
          <dd className="font-semibold">
            {patient.birth_date ? <time dateTime={patient.birth_date}>{formatBirthDate(patient.birth_date)}</time> : 'Not given'}
          </dd>
        </div>
      </dl>
    );
  }
  if (!shared) return null;
  return (
    <p data-testid="patient-identity" className="mt-2 text-sm text-slate-700">
      {shared.show_patient_identity === false
        ? 'The patient chose not to show their name and date of birth on this link: ask them who they are.'
        : "The patient's name and date of birth could not be loaded just now: reload the page, or ask the patient."}
    </p>
  );
}
