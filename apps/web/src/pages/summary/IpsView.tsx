import { useState } from 'react';
import { errorMessage } from '../../api/errors';
import { useLazyShareFormatsFhirQuery, useShareFormatsFhirQuery } from '../../api/summary';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { saveBlob } from '../account/dashboard/download';
import { formatBirthDate } from './PatientLine';

/*
 * The shared summary's FHIR International Patient Summary: instead of raw JSON in a tab,
 * a download of the file (what a clinical system imports) and a readable view of what it says. The
 * Bundle is fetched once, when first asked for (each fetch is a view of the link, audited).
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

const SYSTEMS: Record<string, string> = {
  'http://loinc.org': 'LOINC',
  'http://snomed.info/sct': 'SNOMED CT',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
  'http://hl7.org/fhir/sid/cvx': 'CVX',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD-10-CM',
  'http://hl7.org/fhir/sid/icd-10': 'ICD-10',
  'http://unitsofmeasure.org': 'UCUM',
  'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips': 'IPS',
};

/** A CodeableConcept's words: its text, else its first coding's display. */
function conceptText(value: unknown): string | undefined {
  const concept = obj(value);
  if (!concept) return undefined;
  return str(concept['text']) ?? list(concept['coding']).map((c) => str(obj(c)?.['display'])).find(Boolean);
}

/** A CodeableConcept's codes, e.g. "SNOMED CT 38341003". */
function conceptCodes(value: unknown): string[] {
  return list(obj(value)?.['coding'])
    .map((c) => {
      const coding = obj(c);
      const code = str(coding?.['code']);
      const system = str(coding?.['system']);
      return code ? `${(system && SYSTEMS[system]) ?? system ?? 'code'} ${code}` : undefined;
    })
    .filter((c): c is string => Boolean(c));
}

export interface IpsEntry {
  kind: string;
  text: string;
  detail: string[];
  codes: string[];
}

export interface IpsReadable {
  title: string;
  date: string | undefined;
  /** Composition.status: 'final' once the patient confirmed it, 'preliminary' before. */
  status: string | undefined;
  patient: { name: string | undefined; birthDate: string | undefined };
  sections: { title: string; entries: IpsEntry[]; empty: string | undefined }[];
}

/** What one resource of the Bundle says, in a line and a few details. */
function entryOf(resource: Json): IpsEntry {
  const kind = str(resource['resourceType']) ?? 'Resource';
  const detail: string[] = [];
  const add = (label: string, value: unknown) => {
    const text = str(value) ?? conceptText(value);
    if (text) detail.push(`${label}: ${text}`);
  };
  let concept: unknown;
  switch (kind) {
    case 'Condition':
      concept = resource['code'];
      add('Status', conceptText(resource['clinicalStatus']) ?? list(obj(resource['clinicalStatus'])?.['coding']).map((c) => str(obj(c)?.['code'])).find(Boolean));
      add('Since', resource['onsetDateTime']);
      add('Until', resource['abatementDateTime']);
      break;
    case 'MedicationStatement':
      concept = resource['medicationCodeableConcept'];
      add('Dose', obj(list(resource['dosage'])[0])?.['text']);
      add('Status', resource['status']);
      break;
    case 'AllergyIntolerance':
      concept = resource['code'];
      add('Reaction', list(obj(list(resource['reaction'])[0])?.['manifestation'])[0]);
      add('Criticality', resource['criticality']);
      break;
    case 'Immunization':
      concept = resource['vaccineCode'];
      add('Given', resource['occurrenceDateTime']);
      break;
    case 'Procedure':
      concept = resource['code'];
      add('Done', resource['performedDateTime']);
      break;
    case 'Observation': {
      concept = resource['code'];
      const quantity = obj(resource['valueQuantity']);
      const value = quantity ? [quantity['value'], str(quantity['unit']) ?? str(quantity['code'])].filter((v) => v !== undefined && v !== null).join(' ') : undefined;
      add('Value', value ?? resource['valueString'] ?? resource['valueCodeableConcept']);
      add('When', resource['effectiveDateTime']);
      break;
    }
    default:
      concept = resource['code'];
  }
  return { kind, text: conceptText(concept) ?? kind, detail, codes: conceptCodes(concept) };
}

/** The readable parts of an IPS document Bundle: the Composition's sections with their entries, and the Patient. */
export function readIps(bundle: unknown): IpsReadable {
  const entries = list(obj(bundle)?.['entry']).map(obj).filter((e): e is Json => Boolean(e));
  const byUrl = new Map<string, Json>();
  for (const entry of entries) {
    const resource = obj(entry['resource']);
    const url = str(entry['fullUrl']);
    if (resource && url) byUrl.set(url, resource);
  }
  const resources = entries.map((e) => obj(e['resource'])).filter((r): r is Json => Boolean(r));
  const composition = resources.find((r) => r['resourceType'] === 'Composition') ?? {};
  const patient = resources.find((r) => r['resourceType'] === 'Patient') ?? {};
  const name = obj(list(patient['name'])[0]);
  const patientName =
    str(name?.['text']) ?? ([...list(name?.['given']).map(str), str(name?.['family'])].filter(Boolean).join(' ') || undefined);
  return {
    title: str(composition['title']) ?? 'International Patient Summary',
    date: str(composition['date']),
    status: str(composition['status']),
    patient: { name: patientName, birthDate: str(patient['birthDate']) },
    sections: list(composition['section']).map((s) => {
      const section = obj(s) ?? {};
      const found = list(section['entry'])
        .map((ref) => byUrl.get(str(obj(ref)?.['reference']) ?? ''))
        .filter((r): r is Json => Boolean(r))
        .map(entryOf);
      return {
        title: str(section['title']) ?? conceptText(section['code']) ?? 'Section',
        entries: found,
        empty: found.length === 0 ? (conceptText(section['emptyReason']) ?? 'Nothing recorded.') : undefined,
      };
    }),
  };
}

function ReadableIps({ ips }: { ips: IpsReadable }) {
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-600">Patient</dt>
        <dd className="font-semibold text-slate-900">{ips.patient.name ?? 'Not shown'}</dd>
        <dt className="text-slate-600">Date of birth</dt>
        <dd className="font-semibold text-slate-900">{ips.patient.birthDate ? formatBirthDate(ips.patient.birthDate) : 'Not shown'}</dd>
        <dt className="text-slate-600">Document</dt>
        <dd>
          {ips.title}
          {ips.status === 'final' ? ', confirmed by the patient' : ips.status === 'preliminary' ? ', not yet reviewed by the patient' : ''}
          {ips.date ? ` (${ips.date.slice(0, 10)})` : ''}
        </dd>
      </dl>
      {ips.sections.map((section) => (
        <section key={section.title} aria-label={section.title}>
          <h3 className="font-semibold text-slate-900">{section.title}</h3>
          {section.empty ? (
            <p className="text-slate-600">{section.empty}</p>
          ) : (
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {section.entries.map((entry, n) => (
                <li key={n}>
                  <span className="text-slate-900">{entry.text}</span>
                  {entry.detail.length > 0 && <span className="text-slate-700"> · {entry.detail.join(' · ')}</span>}
                  {entry.codes.length > 0 && <span className="block text-xs text-slate-500">{entry.codes.join(', ')}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

const FAILED = 'The FHIR file could not be loaded. Please try again.';

/** The file name of a downloaded IPS: the date it was fetched. */
export function ipsFilename(now: Date = new Date()): string {
  return `Medfolio_IPS_${now.toISOString().slice(0, 10)}.json`;
}

/**
 * "FHIR (IPS): Download · View": Download saves the Bundle as a .json file, View opens a dialog with
 * what it says (and the JSON itself, folded away). The Bundle is fetched once and kept for both.
 */
export function IpsLinks({ user, viewToken, linkClass }: { user: string; viewToken?: string; linkClass: string }) {
  const arg = viewToken ? { user, view_token: viewToken } : { user };
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { data, error, isFetching } = useShareFormatsFhirQuery(arg, { skip: !open });
  const [fetchIps, fetching] = useLazyShareFormatsFhirQuery();

  async function download() {
    setFailure(null);
    try {
      // The Bundle already fetched (by View or an earlier download) is saved again without a new fetch.
      const bundle = await fetchIps(arg, true).unwrap();
      saveBlob(new Blob([`${JSON.stringify(bundle, null, 2)}\n`], { type: 'application/fhir+json' }), ipsFilename());
    } catch (caught) {
      setFailure(errorMessage(caught, FAILED));
    }
  }

  return (
    <>
      FHIR (IPS):{' '}
      <button type="button" className={linkClass} onClick={() => void download()} disabled={fetching.isFetching}>
        Download
      </button>{' '}
      ·{' '}
      <button type="button" className={linkClass} onClick={() => setOpen(true)}>
        View
      </button>
      {fetching.isFetching && (
        <span role="status" className="ml-2 inline-flex items-center gap-1">
          <Spinner /> Preparing the file…
        </span>
      )}
      {failure && (
        <span role="alert" className="ml-2 text-red-800">
          {failure}
        </span>
      )}
      <Dialog
        open={open}
        title="FHIR International Patient Summary"
        onClose={() => setOpen(false)}
        closeLabel="Close"
        wide
        actions={
          data ? (
            <Button variant="secondary" onClick={() => void download()}>
              Download .json
            </Button>
          ) : undefined
        }
      >
        <p className="text-sm">
          The same summary as a FHIR R4 International Patient Summary, the format clinical systems import. Download the
          file to import it; this is what it says.
        </p>
        <div className="mt-4 max-h-[60vh] overflow-y-auto">
          {isFetching && !data ? (
            <p role="status">Loading…</p>
          ) : error ? (
            <p role="alert" className="text-red-800">
              {errorMessage(error, FAILED)}
            </p>
          ) : data ? (
            <>
              <ReadableIps ips={readIps(data)} />
              <details className="mt-4">
                <summary className="cursor-pointer text-sm font-semibold text-slate-800">The FHIR JSON</summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs">{JSON.stringify(data, null, 2)}</pre>
              </details>
            </>
          ) : null}
        </div>
      </Dialog>
    </>
  );
}
