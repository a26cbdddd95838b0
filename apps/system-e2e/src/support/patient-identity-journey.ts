import type { Bundle, Patient } from '@medplum/fhirtypes';
import { validateIpsBundle } from '@medfolio/clinical/fhir-testing';
import type { ShareLinkItem, SummaryItem } from '@medfolio/contracts';
import { signUp } from './summary-journey';
import { call, type Mailbox } from './journey';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

/** A PDF's text, read with pdf.js (pdfkit writes its text hex-encoded). */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}

const patientOf = (bundle: Bundle): Patient | undefined => bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')?.resource as Patient | undefined;

/**
 * Whose summary it is, across the running product: the summary service asks identity (over NATS, the real
 * handler) for the patient's current name and date of birth at each read. A link names them on the
 * page, the PDF and the IPS Bundle; after a rename, the next read shows the new name; a link made
 * anonymous names nobody in any of them.
 */
export async function patientIdentityJourney(base: string, mailbox: Mailbox): Promise<void> {
  const owner = await signUp(base, mailbox, 'Ada'); // born 1980-04-04
  const renamed = await call(base, 'PUT', '/api/profile/', { first_name: 'Ada', last_name: 'Quintessa', phone: '+1 202 555 0143' }, owner.token);
  check(renamed.status === 200, 'set a family name', renamed.body);
  const added = await call<SummaryItem>(base, 'POST', '/api/summary/facts/', { section: 'allergies', text: 'Penicillin (hives)' }, owner.token);
  check(added.status === 200, 'add a fact', added.body);
  check((await call(base, 'POST', '/api/summary/confirm/', { version: added.body.version }, owner.token)).status === 200, 'confirm');

  const named = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Lee' }, owner.token);
  check(named.status === 201 && named.body.show_patient_identity === true, 'a new link names the patient by default', named.body);
  const page = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${named.body.share_id}`);
  check(
    page.status === 200 && page.body[0]?.patient?.name === 'Ada Quintessa' && page.body[0]?.patient?.birth_date === '1980-04-04',
    'the shared page names the patient (identity answered over NATS)',
    page.body[0]?.patient,
  );
  const fhir = (await (await fetch(`${base}/api/summary/fhir/?user=${named.body.share_id}`)).json()) as Bundle;
  check(validateIpsBundle(fhir).length === 0, 'a valid IPS Bundle', validateIpsBundle(fhir));
  check(patientOf(fhir)?.name?.[0]?.family === 'Quintessa' && patientOf(fhir)?.birthDate === '1980-04-04', 'the IPS Patient has name and birth date', patientOf(fhir));
  const pdf = await pdfText(await (await fetch(`${base}/api/summary/pdf/?user=${named.body.share_id}&size=a4`)).arrayBuffer());
  check(pdf.includes('Ada Quintessa') && pdf.includes('Date of birth'), 'the PDF names the patient', pdf.slice(0, 300));

  // Asked at each read: the new name shows on the next one.
  check((await call(base, 'PUT', '/api/profile/', { first_name: 'Adah', last_name: 'Quintessa', phone: '+1 202 555 0143' }, owner.token)).status === 200, 'rename');
  const again = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${named.body.share_id}`);
  check(again.body[0]?.patient?.name === 'Adah Quintessa', 'the current name after a rename', again.body[0]?.patient);

  const hidden = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'Anonymous', show_patient_identity: false }, owner.token);
  check(hidden.status === 201 && hidden.body.show_patient_identity === false, 'an anonymous link', hidden.body);
  const anonymousPage = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${hidden.body.share_id}`);
  check(anonymousPage.body[0]?.patient === null && !JSON.stringify(anonymousPage.body).includes('Quintessa'), 'the anonymous page names nobody', anonymousPage.body[0]?.patient);
  const anonymousFhir = await (await fetch(`${base}/api/summary/fhir/?user=${hidden.body.share_id}`)).text();
  check(!anonymousFhir.includes('Quintessa') && !anonymousFhir.includes('1980-04-04'), 'the anonymous IPS names nobody');
  check(validateIpsBundle(JSON.parse(anonymousFhir) as Bundle).length === 0, 'the anonymous IPS is still valid');
  const anonymousPdf = await pdfText(await (await fetch(`${base}/api/summary/pdf/?user=${hidden.body.share_id}&size=a4`)).arrayBuffer());
  check(!anonymousPdf.includes('Quintessa') && !anonymousPdf.includes('Date of birth'), 'the anonymous PDF names nobody', anonymousPdf.slice(0, 300));
}
