import { randomUUID } from 'node:crypto';
import {
  NOTIFICATIONS_SUBJECTS,
  PROVIDER_MESSAGES,
  PROVIDERS_SUBJECTS,
  SHARING_SUBJECTS,
  type CallerIdentity,
  type ProviderFacts,
  type ResolvedShareLink,
} from '@medfolio/contracts';
import { InProcessBroker, type InProcessContext } from '@medfolio/messaging';
import { documentFiles as files, refusal } from '@medfolio/testing';
import { ProviderAccessService } from './services/provider-access.service';
import { DocumentsHarness, newUserId } from './testing/documents-harness';

/**
 * Provider access on the documents service with a real PostgreSQL database, the
 * encrypted filesystem store and its audit records. The three services it asks (identity: the
 * caller's licence and the patient's address; summary: the share id's owner; notifications: the
 * e-mail) answer over the in-process request/reply transport from stand-ins registered on the
 * same broker the one-process mode uses. The access matrix: every provider route × patient,
 * provider with a grant, without, after revoke, after expiry, unverified user, signed out.
 */
const h = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process' });
let access: ProviderAccessService;

const verified = new Map<string, ProviderFacts>();
const shares = new Map<string, ResolvedShareLink>();
const contacts = new Map<string, { email: string; first_name: string }>();
const mails: { to: string; data: Record<string, string> }[] = [];
const STAND_INS: [string, (data: Record<string, unknown>, caller: CallerIdentity) => unknown][] = [
  [PROVIDERS_SUBJECTS.getProvider, (_d, c) => verified.get(c.userId ?? '') ?? Promise.reject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.notProvider })],
  [PROVIDERS_SUBJECTS.userContact, (d) => contacts.get(String(d['user_id'])) ?? Promise.reject({ code: 'NOT_FOUND', message: 'User not found.' })],
  [SHARING_SUBJECTS.resolve, (d) => shares.get(String(d['share_id'])) ?? Promise.reject({ code: 'NOT_FOUND', message: 'This link is not valid.' })],
  [NOTIFICATIONS_SUBJECTS.sendEmail, (d) => (mails.push({ to: String(d['to']), data: d['data'] as Record<string, string> }), { id: randomUUID(), state: 'queued' })],
];

const who = (userId: string | undefined, roles: string[] = ['patient']): CallerIdentity => ({ ...(userId ? { userId } : {}), roles, correlationId: randomUUID(), ip: '203.0.113.7' });

const patientId = newUserId();
const doctorId = newUserId();
const otherDoctorId = newUserId();
const unverifiedId = newUserId();
const selfAttestedId = newUserId();
const patient = () => who(patientId);
const doctor = () => who(doctorId, ['patient', 'provider']);
const otherDoctor = () => who(otherDoctorId, ['patient', 'provider']);
const unverified = () => who(unverifiedId);
const selfAttested = () => who(selfAttestedId, ['patient', 'provider']);
const signedOut = () => who(undefined, []);
const SHARE = 'AAAAAAAAAAAAAAAAAAAAAA'; // a share id of the right shape
const OPEN_SHARE = 'BBBBBBBBBBBBBBBBBBBBBB';
let documentId = '';

const facts = (npi: string, name: string, verification: ProviderFacts['verification'] = 'verified'): ProviderFacts => ({
  npi, registry: 'nppes', first_name: name.split(' ')[0]!.toUpperCase(), last_name: name.split(' ')[1]!.toUpperCase(), credential: 'M.D.', specialty: 'Internal Medicine', state: 'CA', verified_at: new Date().toISOString(), display_name: `Dr ${name} (NPI ${npi})`,
  verification, review: verification === 'verified' ? 'verified' : 'pending', reviewed_at: verification === 'verified' ? new Date().toISOString() : null,
});

beforeAll(async () => {
  for (const [subject, answer] of STAND_INS) {
    InProcessBroker.register(subject, async (data, context: InProcessContext) => answer(data as Record<string, unknown>, JSON.parse(context.getHeaders().get('x-caller') || '{}') as CallerIdentity));
  }
  await h.start();
  access = h.get(ProviderAccessService);
  verified.set(doctorId, facts('1234567893', 'Ana Ruiz'));
  verified.set(otherDoctorId, facts('1003000126', 'John Smith'));
  verified.set(selfAttestedId, facts('1245319599', 'Bob Lee', 'self_attested'));
  contacts.set(patientId, { email: 'patient@example.com', first_name: 'Pat' });
  shares.set(SHARE, { link_id: randomUUID(), owner_id: patientId, label: 'Default', purpose: 'default', providers_may_see_documents: false, expires_at: null });
  shares.set(OPEN_SHARE, { link_id: randomUUID(), owner_id: patientId, label: 'For my GP', purpose: 'custom', providers_may_see_documents: true, expires_at: null });
  const upload = await h.upload(patientId, [{ name: 'labs.pdf', data: files.pdf('labs.pdf') }]);
  expect(upload.status).toBe(201);
  documentId = (upload.body as { documents: { id: string }[] }).documents[0]!.id;
}, 60_000);

afterAll(async () => {
  await h.stop();
  for (const [subject] of STAND_INS) InProcessBroker.unregister(subject);
});

/** Every route a provider uses about one patient, as a caller: 'ok' or the error code. */
async function providerRoutes(caller: CallerIdentity, now = new Date()): Promise<Record<string, string>> {
  const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code: string }) => e.code);
  return {
    documents: await code(access.patientDocuments(caller, { patient_id: patientId }, now)),
    downloadLink: await code(access.patientDownloadLink(caller, { patient_id: patientId, document_id: documentId }, now)),
    check: await code(access.check(caller, { patient_id: patientId }, now)),
    patientListed: await access.patients(caller, now).then((list) => (list.some((p) => p.patient_id === patientId) ? 'listed' : 'not listed'), (e: { code: string }) => e.code),
  };
}
const DENIED = { documents: 'NOT_FOUND', downloadLink: 'NOT_FOUND', check: 'NOT_FOUND' };

describe('provider access to a patient\'s documents', () => {
  it('before any grant: nobody but the patient sees anything (404, as any other user\'s data)', async () => {
    expect(await providerRoutes(doctor())).toEqual({ ...DENIED, patientListed: 'not listed' });
    expect(await providerRoutes(unverified())).toEqual({ ...DENIED, patientListed: 'FORBIDDEN' });
    expect(await providerRoutes(signedOut())).toEqual({ documents: 'UNAUTHENTICATED', downloadLink: 'UNAUTHENTICATED', check: 'UNAUTHENTICATED', patientListed: 'UNAUTHENTICATED' });
    // The patient's own id is not a way in either: their documents go through the owner routes.
    expect(await providerRoutes(patient())).toEqual({ ...DENIED, patientListed: 'FORBIDDEN' });
  });

  it('only a verified provider may ask; a bad share id is "not valid"', async () => {
    expect(await refusal(access.requestAccess(unverified(), { share_id: SHARE }))).toMatchObject({ code: 'FORBIDDEN', message: PROVIDER_MESSAGES.notProvider });
    expect(await refusal(access.requestAccess(signedOut(), { share_id: SHARE }))).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await refusal(access.requestAccess(doctor(), { share_id: 'CCCCCCCCCCCCCCCCCCCCCC' }))).toMatchObject({ code: 'NOT_FOUND', message: 'This link is not valid.' });
  });

  it('a request: pending, one e-mail to the patient, in the patient\'s list; asking again changes nothing', async () => {
    expect(await access.requestAccess(doctor(), { share_id: SHARE })).toEqual({ message: PROVIDER_MESSAGES.requested, state: 'pending', patient_id: null });
    expect(await access.requestAccess(doctor(), { share_id: SHARE })).toMatchObject({ state: 'pending' });
    expect(mails).toEqual([{ to: 'patient@example.com', data: { first_name: 'Pat', provider: 'Dr Ana Ruiz (NPI 1234567893)', verification: 'verified', review_url: 'http://localhost:3000/providers/access' } }]);
    const list = await access.patientAccess(patient());
    expect(list.requests).toEqual([expect.objectContaining({ state: 'pending', link_label: 'Default', provider: expect.objectContaining({ npi: '1234567893', display_name: 'Dr Ana Ruiz (NPI 1234567893)', user_id: doctorId }) })]);
    expect(list.grants).toEqual([]);
    // Still nothing to see while pending.
    expect(await providerRoutes(doctor())).toEqual({ ...DENIED, patientListed: 'not listed' });
    // Another provider cannot decide the patient's request, and sees no requests of theirs.
    expect(await refusal(access.decide(otherDoctor(), { request_id: list.requests[0]!.id, decision: 'approve', duration: 'month' }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('approved for a day: the provider lists, previews and downloads read-only, audited under their name; it expires after a day', async () => {
    const request = (await access.patientAccess(patient())).requests[0]!;
    const after = await access.decide(patient(), { request_id: request.id, decision: 'approve', duration: 'day' });
    expect(after.requests).toEqual([]);
    expect(after.grants).toEqual([expect.objectContaining({ source: 'approved', active: true, revoked_at: null })]);
    const grant = after.grants[0]!;
    expect(new Date(grant.expires_at).getTime() - new Date(grant.granted_at).getTime()).toBe(86_400_000);

    expect(await providerRoutes(doctor())).toEqual({ documents: 'ok', downloadLink: 'ok', check: 'ok', patientListed: 'listed' });
    const listed = await access.patientDocuments(doctor(), { patient_id: patientId });
    expect(listed.map((d) => d.filename)).toEqual(['labs.pdf']);
    const link = await access.patientDownloadLink(doctor(), { patient_id: patientId, document_id: documentId });
    expect(link.filename).toBe('labs.pdf');
    expect((await access.patients(doctor()))[0]).toMatchObject({ patient_id: patientId, first_name: 'Pat', grant_id: grant.id });

    const record = h.audit.filter((a) => a.action === 'document.download-link' && a.actor === doctorId && a.outcome === 'success').at(-1);
    expect(record).toMatchObject({ patientId, entityId: documentId, policy: `provider:${grant.id}:Dr Ana Ruiz (NPI 1234567893)` });

    // The grant is to this provider only; a document id of another patient is 404.
    expect(await providerRoutes(otherDoctor())).toEqual({ ...DENIED, patientListed: 'not listed' });
    expect(await refusal(access.patientDownloadLink(doctor(), { patient_id: patientId, document_id: randomUUID() }))).toMatchObject({ code: 'NOT_FOUND' });
    // A day and a minute later: expired.
    const later = new Date(Date.now() + 86_460_000);
    expect(await providerRoutes(doctor(), later)).toEqual({ ...DENIED, patientListed: 'not listed' });
    expect((await access.patientAccess(patient(), later)).grants[0]).toMatchObject({ active: false });
  });

  it('revoked: 404 at once; the patient\'s list keeps it, marked', async () => {
    const grant = (await access.patientAccess(patient())).grants[0]!;
    expect(await refusal(access.revoke(otherDoctor(), { grant_id: grant.id }))).toMatchObject({ code: 'NOT_FOUND' });
    const after = await access.revoke(patient(), { grant_id: grant.id });
    expect(after.grants[0]).toMatchObject({ id: grant.id, active: false, revoked_at: expect.any(String) });
    expect(await providerRoutes(doctor())).toEqual({ ...DENIED, patientListed: 'not listed' });
    expect(h.audit.some((a) => a.action === 'document.list' && a.actor === doctorId && a.outcome === 'denied' && a.patientId === patientId)).toBe(true);
  });

  it('declined: no grant', async () => {
    await access.requestAccess(otherDoctor(), { share_id: SHARE });
    const request = (await access.patientAccess(patient())).requests[0]!;
    const after = await access.decide(patient(), { request_id: request.id, decision: 'decline' });
    expect(after.requests).toEqual([]);
    expect(after.grants.filter((g) => g.provider.user_id === otherDoctorId)).toEqual([]);
    expect(await refusal(access.decide(patient(), { request_id: request.id, decision: 'approve', duration: 'week' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await providerRoutes(otherDoctor())).toEqual({ ...DENIED, patientListed: 'not listed' });
  });

  it('a link made with "verified providers may see documents" grants at once (a month), without a request', async () => {
    const mailsBefore = mails.length;
    expect(await access.requestAccess(otherDoctor(), { share_id: OPEN_SHARE })).toEqual({ message: PROVIDER_MESSAGES.granted, state: 'granted', patient_id: patientId });
    expect(mails.length).toBe(mailsBefore);
    expect(await providerRoutes(otherDoctor())).toEqual({ documents: 'ok', downloadLink: 'ok', check: 'ok', patientListed: 'listed' });
    const grant = (await access.patientAccess(patient())).grants.find((g) => g.provider.user_id === otherDoctorId && g.active)!;
    expect(grant.source).toBe('share-link');
    expect(await access.requestAccess(otherDoctor(), { share_id: SHARE })).toMatchObject({ state: 'granted', message: PROVIDER_MESSAGES.alreadyGranted });
  });

  it('a self-attested provider (registry name match only) is never pre-approved by such a link: it asks, and the patient sees "claims to be ...; not verified"', async () => {
    const mailsBefore = mails.length;
    expect(await access.requestAccess(selfAttested(), { share_id: OPEN_SHARE })).toEqual({ message: PROVIDER_MESSAGES.requestedNotVerified, state: 'pending', patient_id: null });
    expect(await providerRoutes(selfAttested())).toEqual({ ...DENIED, patientListed: 'not listed' });
    expect(mails.slice(mailsBefore)).toEqual([{ to: 'patient@example.com', data: expect.objectContaining({ provider: 'Dr Bob Lee (NPI 1245319599)', verification: 'self_attested' }) }]);
    const list = await access.patientAccess(patient());
    const request = list.requests.find((r) => r.provider.user_id === selfAttestedId)!;
    expect(request).toMatchObject({ state: 'pending', link_label: 'For my GP', provider: { verification: 'self_attested', display_name: 'Dr Bob Lee (NPI 1245319599)' } });
    expect(list.grants.find((g) => g.provider.user_id === selfAttestedId)).toBeUndefined();
    expect(list.grants.every((g) => g.provider.verification === 'verified')).toBe(true);
    // The patient may still approve; the history then names the claim as a claim.
    await access.decide(patient(), { request_id: request.id, decision: 'approve', duration: 'day' });
    expect(await providerRoutes(selfAttested())).toMatchObject({ documents: 'ok', check: 'ok' });
    expect(await access.check(selfAttested(), { patient_id: patientId })).toMatchObject({ display_name: 'claims to be Dr Bob Lee (NPI 1245319599); not verified' });
  });

  it('a grant works only while the provider still holds the claim it was given under: dropped (rename, rejection) or another NPI ends it at once, whatever the token says', async () => {
    expect(await providerRoutes(selfAttested())).toMatchObject({ documents: 'ok', check: 'ok' });
    const held = verified.get(selfAttestedId)!;
    try {
      // Renamed or rejected: identity no longer knows a claim (the old access token still says 'provider').
      verified.delete(selfAttestedId);
      expect(await providerRoutes(selfAttested())).toEqual({ ...DENIED, patientListed: 'FORBIDDEN' });
      // Claiming another doctor's NPI since: the grant was given to the first claim, not to this one.
      verified.set(selfAttestedId, facts('1003000126', 'John Smith', 'self_attested'));
      expect(await providerRoutes(selfAttested())).toMatchObject(DENIED);
    } finally {
      verified.set(selfAttestedId, held);
    }
    expect(await providerRoutes(selfAttested())).toMatchObject({ documents: 'ok', check: 'ok' });
  });
});
