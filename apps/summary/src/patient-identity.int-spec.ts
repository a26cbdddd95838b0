import { randomUUID } from 'node:crypto';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { validateIpsBundle } from '@medfolio/clinical/fhir-testing';
import { type AuditEventDto, type CallerIdentity } from '@medfolio/contracts';
import { receiveShl } from '@medfolio/testing';
import { ProviderSummaryService } from './services/provider-summary.service';
import { ShareFormatsService } from './services/share-formats.service';
import { SharingService } from './services/sharing.service';
import { SummaryService } from './services/summary.service';
import { pdfText } from './testing/pdf-text';
import { shlHttp } from './testing/shl-http';
import { SummaryHarness } from './testing/summary-harness';

/**
 * On real PostgreSQL and NATS JetStream: whose summary it is. A link names the patient
 * (current name and date of birth, asked of identity at each read) on the page, the PDF, the IPS
 * Bundle and the SHL's Bundle, unless its owner turned that off (an anonymous summary: none of them
 * carries either). The owner's and a provider's copies name the patient too. Every read stays audited.
 */
const h = new SummaryHarness();
beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop());

const person = (userId?: string): CallerIdentity => ({ ...(userId ? { userId } : {}), roles: [], correlationId: randomUUID() });
const formats = () => h.get(ShareFormatsService);
const sharing = () => h.get(SharingService);
const summaries = () => h.get(SummaryService);

/** The gateway's SHL exchange, straight to the service. */
const http = shlHttp(formats, () => person());

/** An owner called Ada Quintessa Example, born 2 April 1980, with a confirmed summary. */
async function patient(): Promise<string> {
  const ownerId = randomUUID();
  h.patientIdentities.set(ownerId, { first_name: 'Ada Quintessa', last_name: 'Example', date_of_birth: '1980-04-02' });
  await summaries().add(person(ownerId), { section: 'allergies', text: 'Penicillin (hives)' });
  await summaries().confirm(person(ownerId), { version: 1 });
  return ownerId;
}

const patientOf = (bundle: Bundle): Patient => bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')?.resource as Patient;
const named = (bundle: Bundle): void => {
  expect(validateIpsBundle(bundle)).toEqual([]);
  const name = patientOf(bundle).name?.[0];
  // The account's first name, whether the mapper keeps it whole or splits it into given names.
  expect(name?.given?.join(' ')).toBe('Ada Quintessa');
  expect(name).toMatchObject({ family: 'Example', text: 'Ada Quintessa Example' });
  expect(patientOf(bundle).birthDate).toBe('1980-04-02');
};
const anonymous = (bundle: Bundle): void => {
  expect(validateIpsBundle(bundle)).toEqual([]);
  const text = JSON.stringify(bundle);
  for (const secret of ['Quintessa', 'Example', '1980']) expect(text).not.toContain(secret);
  expect(patientOf(bundle).birthDate).toBeUndefined();
  // Said to be anonymous (the IPS's anonymous name), not merely unknown.
  expect(patientOf(bundle).name?.[0]?.use).toBe('anonymous');
  expect(text).toContain('Penicillin (hives)');
};
const sharedViews = (linkId: string) => h.audit.filter((r: AuditEventDto) => r.action === 'summary.shared-view' && r.entityId === linkId && r.outcome === 'success').length;

it('a link names the patient by default on the page, the PDF, the IPS Bundle and the SHL Bundle, each read audited', async () => {
  const ownerId = await patient();
  const link = await sharing().create(person(ownerId), { label: 'For Dr Lee', shl: true });
  expect(link.show_patient_identity).toBe(true);

  const [page] = await summaries().get(person(), { user: link.share_id });
  expect(page?.patient).toEqual({ name: 'Ada Quintessa Example', given: 'Ada Quintessa', family: 'Example', birth_date: '1980-04-02' });
  expect(page?.shared).toMatchObject({ label: 'For Dr Lee', show_patient_identity: true });

  const pdf = await pdfText((await formats().pdf(person(), { user: link.share_id, size: 'a4' })).content_base64);
  expect(pdf).toContain('Ada Quintessa Example');
  expect(pdf).toMatch(/Date of birth: 2 Apr(il)? 1980/);

  named((await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle);

  const shl = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee' });
  if (!shl.ok) throw new Error(`refused: ${JSON.stringify(shl)}`);
  named(shl.files[0]?.json as Bundle);

  // Page, PDF, FHIR, SHL: four reads, four audit records, as before names were shown.
  await h.eventually('four view records', async () => (sharedViews(link.id) === 4 ? true : undefined));

  // Asked at each read: a renamed account shows its current name on the next one.
  h.patientIdentities.set(ownerId, { first_name: 'Ada', last_name: 'Newname', date_of_birth: '1980-04-02' });
  const [renamed] = await summaries().get(person(), { user: link.share_id });
  expect(renamed?.patient?.name).toBe('Ada Newname');
}, 60_000);

it('a link made anonymous names nobody anywhere (page, PDF, IPS, SHL), does not even ask identity, and can be turned back on', async () => {
  const ownerId = await patient();
  const link = await sharing().create(person(ownerId), { label: 'Anonymous', shl: true, show_patient_identity: false });
  expect(link.show_patient_identity).toBe(false);
  expect((await sharing().list(person(ownerId))).find((l) => l.id === link.id)?.show_patient_identity).toBe(false);

  const [page] = await summaries().get(person(), { user: link.share_id });
  expect(page?.patient).toBeNull();
  expect(page?.shared?.show_patient_identity).toBe(false);
  expect(JSON.stringify(page)).not.toContain('Quintessa');

  const pdf = await pdfText((await formats().pdf(person(), { user: link.share_id, size: 'letter' })).content_base64);
  expect(pdf).toContain('Penicillin (hives)');
  expect(pdf).not.toContain('Quintessa');
  expect(pdf).not.toContain('Date of birth');

  anonymous((await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle);
  const located = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee', embeddedLengthMax: 10 });
  if (!located.ok) throw new Error(`refused: ${JSON.stringify(located)}`);
  expect(located.files[0]?.via).toBe('location');
  anonymous(located.files[0]?.json as Bundle);
  expect(h.identityReads.get(ownerId) ?? 0).toBe(0);
  await h.eventually('four view records', async () => (sharedViews(link.id) === 4 ? true : undefined));

  // The owner changes their mind: the same link names them from the next read on.
  const on = await sharing().update(person(ownerId), { link_id: link.id, show_patient_identity: true });
  expect(on.show_patient_identity).toBe(true);
  named((await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle);
  await h.eventually('the change in the history', async () =>
    h.audit.find((r) => r.action === 'share-link.update' && r.entityId === link.id && r.outcome === 'success'),
  );
});

it("the owner's own copies and a provider's name the patient; the owner's view through an anonymous link previews it anonymous", async () => {
  const ownerId = await patient();
  const owner = person(ownerId);
  const [own] = await summaries().get(owner, { user: ownerId });
  expect(own?.patient?.name).toBe('Ada Quintessa Example');
  const ownBundle = (await formats().fhir(owner, { user: ownerId })) as unknown as Bundle;
  named(ownBundle);
  expect(patientOf(ownBundle).identifier?.[0]?.value).toBe(ownerId);
  expect(await pdfText((await formats().pdf(owner, { user: ownerId, size: 'a4' })).content_base64)).toContain('Ada Quintessa Example');

  const hidden = await sharing().create(owner, { label: 'Anonymous', show_patient_identity: false });
  const [preview] = await summaries().get(owner, { user: hidden.share_id });
  expect(preview?.patient).toBeNull();

  const providerId = randomUUID();
  h.grants.set(ownerId, new Set([providerId]));
  const providerBundle = (await h.get(ProviderSummaryService).ips(person(providerId), { patient_id: ownerId })) as unknown as Bundle;
  named(providerBundle);
  await h.eventually('the provider read in the history', async () =>
    h.audit.find((r) => r.action === 'summary.read' && r.patientId === ownerId && r.outcome === 'success' && r.actor === providerId),
  );
});

it('when identity cannot answer, the summary is still handed out (and audited), with patient null rather than a wrong name', async () => {
  const ownerId = await patient();
  const link = await sharing().ensure(person(ownerId), { purpose: 'default' });
  h.identityDown = true;
  try {
    const [page] = await summaries().get(person(), { user: link.share_id });
    expect(page?.status).toBe('ready');
    expect(page?.patient).toBeNull();
    expect(page?.shared?.show_patient_identity).toBe(true);
  } finally {
    h.identityDown = false;
  }
  await h.eventually('the view record', async () => (sharedViews(link.id) === 1 ? true : undefined));
});
