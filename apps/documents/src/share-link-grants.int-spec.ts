import { randomUUID } from 'node:crypto';
import {
  NOTIFICATIONS_SUBJECTS,
  PROVIDER_MESSAGES,
  PROVIDERS_SUBJECTS,
  SHARING_MESSAGES,
  SHARING_SUBJECTS,
  STREAMS,
  type CallerIdentity,
  type ProviderFacts,
  type ResolvedShareLink,
  type ShareLinkChangedEvent,
} from '@medfolio/contracts';
import { EventHandlersExplorer, InProcessBroker, type EventEnvelope, type EventHandlerFn, type InProcessContext } from '@medfolio/messaging';
import { refusal } from '@medfolio/testing';
import { ProviderAccessService } from './services/provider-access.service';
import { DocumentsHarness, newUserId } from './testing/documents-harness';

/**
 * What a share link leads to, on the documents side: a passcode link's access
 * request needs the link's view token (1), and the grants a link made end with the link (4): revoked,
 * expired, replaced, or its "verified providers may see documents" turned off, through the summary
 * service's share-link events on real NATS JetStream (the durable consumer the service runs), each
 * ending audited; grants the patient approved stay. Identity, summary and notifications answer from
 * stand-ins on the in-process request/reply transport; the summary stand-in asks for the view token
 * as summary's `resolve` does (apps/summary/src/sharing.int-spec.ts tests the real one).
 */
const h = new DocumentsHarness({ storage: 'filesystem', bus: 'jetstream' });
let access: ProviderAccessService;
/** The share-link consumer as the bus calls it (the kit's validation and processed-message record). */
let deliverLinkChange: EventHandlerFn;

interface StandInLink {
  resolved: ResolvedShareLink;
  /** The view token a passcode link takes (the stand-in's own; summary signs real ones). */
  viewToken?: string;
  /** What `resolve` answers from its second call on (a change made while a grant was being written). */
  later?: 'revoked' | 'documents-off';
  calls: number;
}

const verified = new Map<string, ProviderFacts>();
const links = new Map<string, StandInLink>();
const mails: string[] = [];
const STAND_INS: [string, (data: Record<string, unknown>, caller: CallerIdentity) => unknown][] = [
  [PROVIDERS_SUBJECTS.getProvider, (_d, c) => verified.get(c.userId ?? '') ?? Promise.reject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.notProvider })],
  [PROVIDERS_SUBJECTS.userContact, () => ({ email: 'patient@example.com', first_name: 'Pat' })],
  [SHARING_SUBJECTS.resolve, (d) => resolve(String(d['share_id']), d['view_token'] as string | undefined)],
  [NOTIFICATIONS_SUBJECTS.sendEmail, (d) => (mails.push(String(d['to'])), { id: randomUUID(), state: 'queued' })],
];

function resolve(shareId: string, viewToken: string | undefined): unknown {
  const link = links.get(shareId);
  if (!link) return Promise.reject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  link.calls += 1;
  if (link.calls > 1 && link.later === 'revoked') return Promise.reject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  if (link.viewToken && viewToken !== link.viewToken) return Promise.reject({ code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired });
  if (link.calls > 1 && link.later === 'documents-off') return { ...link.resolved, providers_may_see_documents: false };
  return link.resolved;
}

const who = (userId: string, roles: string[] = ['patient']): CallerIdentity => ({ userId, roles, correlationId: randomUUID(), ip: '203.0.113.7' });
const doctorId = newUserId();
const otherDoctorId = newUserId();
const doctor = () => who(doctorId, ['patient', 'provider']);
const otherDoctor = () => who(otherDoctorId, ['patient', 'provider']);

const facts = (npi: string, name: string): ProviderFacts => ({
  npi, registry: 'nppes', first_name: name.split(' ')[0]!.toUpperCase(), last_name: name.split(' ')[1]!.toUpperCase(), credential: 'M.D.', specialty: 'Internal Medicine', state: 'CA', verified_at: new Date().toISOString(), display_name: `Dr ${name} (NPI ${npi})`,
  verification: 'verified', review: 'verified', reviewed_at: new Date().toISOString(),
});

let shareSeq = 0;
/** A new link of `patientId` the stand-in resolves: pre-approving or not, with a passcode (its view token) or not. */
function link(patientId: string, options: { documents: boolean; viewToken?: string; expiresAt?: string; later?: StandInLink['later'] }): { shareId: string; linkId: string } {
  const shareId = `share${String(++shareSeq).padStart(17, '0')}`;
  const linkId = randomUUID();
  links.set(shareId, {
    resolved: { link_id: linkId, owner_id: patientId, label: 'For Dr Lee', purpose: 'custom', providers_may_see_documents: options.documents, expires_at: options.expiresAt ?? null },
    ...(options.viewToken ? { viewToken: options.viewToken } : {}),
    ...(options.later ? { later: options.later } : {}),
    calls: 0,
  });
  return { shareId, linkId };
}

/** Publishes summary.share-link.changed.v1 as the summary service's outbox relay does. */
async function changed(event: Omit<ShareLinkChangedEvent, 'changed_at' | 'purpose'> & Partial<ShareLinkChangedEvent>): Promise<void> {
  await h.bus.publish(SHARING_SUBJECTS.changed, { purpose: 'custom', changed_at: new Date().toISOString(), ...event }, { msgId: randomUUID() });
}

const sees = (caller: CallerIdentity, patientId: string) => access.patientDocuments(caller, { patient_id: patientId }).then(() => 'ok', (e: { code: string }) => e.code);
const grantOf = async (patientId: string, providerId: string) => (await access.patientAccess(who(patientId))).grants.find((g) => g.provider.user_id === providerId);
const endRecords = (grantId: string) => h.audit.filter((a) => a.action === 'provider-access.end' && a.entityId === grantId);

beforeAll(async () => {
  for (const [subject, answer] of STAND_INS) {
    InProcessBroker.register(subject, async (data, context: InProcessContext) => answer(data as Record<string, unknown>, JSON.parse(context.getHeaders().get('x-caller') || '{}') as CallerIdentity));
  }
  await h.start();
  access = h.get(ProviderAccessService);
  deliverLinkChange = h.get(EventHandlersExplorer).deliveryFor(STREAMS.SUMMARY.name, 'documents-share-links');
  verified.set(doctorId, facts('1234567893', 'Ana Ruiz'));
  verified.set(otherDoctorId, facts('1003000126', 'John Smith'));
}, 60_000);

afterAll(async () => {
  await h.stop();
  for (const [subject] of STAND_INS) InProcessBroker.unregister(subject);
});

describe('a passcode link leads nowhere without its passcode', () => {
  it('a link that pre-approves providers: without the view token (or with a wrong one) no grant and no request; with it, granted', async () => {
    const patientId = newUserId();
    const { shareId } = link(patientId, { documents: true, viewToken: 'view-token-1' });
    const needsPasscode = { code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired };
    expect(await refusal(access.requestAccess(doctor(), { share_id: shareId }))).toMatchObject(needsPasscode);
    expect(await refusal(access.requestAccess(doctor(), { share_id: shareId, view_token: 'view-token-2' }))).toMatchObject(needsPasscode);
    expect(await access.patientAccess(who(patientId))).toEqual({ requests: [], grants: [] });
    expect(await sees(doctor(), patientId)).toBe('NOT_FOUND');

    expect(await access.requestAccess(doctor(), { share_id: shareId, view_token: 'view-token-1' })).toEqual({ message: PROVIDER_MESSAGES.granted, state: 'granted', patient_id: patientId });
    expect(await sees(doctor(), patientId)).toBe('ok');
  });

  it('a link that does not: without the view token no pending request and no e-mail; with it, the request', async () => {
    const patientId = newUserId();
    const { shareId } = link(patientId, { documents: false, viewToken: 'view-token-3' });
    const mailsBefore = mails.length;
    expect(await refusal(access.requestAccess(doctor(), { share_id: shareId }))).toMatchObject({ code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired });
    expect((await access.patientAccess(who(patientId))).requests).toEqual([]);
    expect(mails.length).toBe(mailsBefore);
    expect(await access.requestAccess(doctor(), { share_id: shareId, view_token: 'view-token-3' })).toMatchObject({ state: 'pending' });
    expect((await access.patientAccess(who(patientId))).requests).toHaveLength(1);
  });
});

describe('grants a link made end with the link', () => {
  it('revoked: the grants it made end at once, each audited in the patient\'s history; a grant the patient approved stays', async () => {
    const patientId = newUserId();
    const open = link(patientId, { documents: true });
    const asking = link(patientId, { documents: false });
    await access.requestAccess(doctor(), { share_id: open.shareId });
    // Another doctor asked through another link of the patient's, and the patient approved.
    await access.requestAccess(otherDoctor(), { share_id: asking.shareId });
    const request = (await access.patientAccess(who(patientId))).requests[0]!;
    await access.decide(who(patientId), { request_id: request.id, decision: 'approve', duration: 'week' });
    expect(await sees(doctor(), patientId)).toBe('ok');
    expect(await sees(otherDoctor(), patientId)).toBe('ok');
    const grant = (await grantOf(patientId, doctorId))!;

    await changed({ link_id: open.linkId, owner_id: patientId, state: 'revoked', version: 2, providers_may_see_documents: true, expires_at: null });
    await h.eventually('the grant ended', async () => ((await sees(doctor(), patientId)) === 'NOT_FOUND' ? true : undefined));
    expect(await grantOf(patientId, doctorId)).toMatchObject({ id: grant.id, source: 'share-link', active: false, revoked_at: expect.any(String) });
    const record = await h.eventually('the ending in the history', async () => endRecords(grant.id)[0]);
    expect(record).toMatchObject({ actor: patientId, patientId, entityType: 'provider-access', outcome: 'success', policy: `provider:${grant.id}:Dr Ana Ruiz (NPI 1234567893)` });
    // The approved grant, and its request's link, are the patient's own decision: untouched.
    expect(await sees(otherDoctor(), patientId)).toBe('ok');
    await changed({ link_id: asking.linkId, owner_id: patientId, state: 'revoked', version: 2, providers_may_see_documents: false, expires_at: null });
    await changed({ link_id: randomUUID(), owner_id: patientId, state: 'revoked', version: 2 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await sees(otherDoctor(), patientId)).toBe('ok');

    // A redelivered event is processed once (processed ids): no second record.
    const envelope: EventEnvelope<ShareLinkChangedEvent> = {
      id: randomUUID(),
      subject: SHARING_SUBJECTS.changed,
      data: { link_id: open.linkId, owner_id: patientId, purpose: 'custom', state: 'expired', version: 3, changed_at: new Date().toISOString() },
      headers: {},
      deliveryCount: 1,
      seq: 1,
    };
    await deliverLinkChange(envelope);
    await deliverLinkChange({ ...envelope, deliveryCount: 2 });
    expect(await h.sql(`SELECT 1 FROM documents.processed_messages WHERE consumer = 'documents-share-links' AND message_id = $1`, [envelope.id])).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(endRecords(grant.id)).toHaveLength(1);
    // A new request through the revoked link finds it not valid (the stand-in, as summary answers).
    links.delete(open.shareId);
    expect(await refusal(access.requestAccess(doctor(), { share_id: open.shareId }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  });

  it('expired or replaced: the same', async () => {
    for (const state of ['expired', 'replaced'] as const) {
      const patientId = newUserId();
      const open = link(patientId, { documents: true });
      await access.requestAccess(doctor(), { share_id: open.shareId });
      expect(await sees(doctor(), patientId)).toBe('ok');
      await changed({ link_id: open.linkId, owner_id: patientId, state, version: 2, providers_may_see_documents: true, expires_at: null });
      await h.eventually(`the grant ended (${state})`, async () => ((await sees(doctor(), patientId)) === 'NOT_FOUND' ? true : undefined));
    }
  });

  it('"verified providers may see documents" turned off ends them; a change that keeps it on (or an event without it) does not; an earlier expiry ends them by then', async () => {
    const patientId = newUserId();
    const open = link(patientId, { documents: true });
    await access.requestAccess(doctor(), { share_id: open.shareId });
    await access.requestAccess(otherDoctor(), { share_id: open.shareId });
    const before = (await grantOf(patientId, doctorId))!;

    await changed({ link_id: open.linkId, owner_id: patientId, state: 'active', version: 2, providers_may_see_documents: true, expires_at: null });
    await changed({ link_id: open.linkId, owner_id: patientId, state: 'active', version: 3 });
    const soon = new Date(Date.now() + 3_600_000);
    await changed({ link_id: open.linkId, owner_id: patientId, state: 'active', version: 4, providers_may_see_documents: true, expires_at: soon.toISOString() });
    const capped = await h.eventually('the grants end with the link', async () => {
      const grant = await grantOf(patientId, doctorId);
      return grant && new Date(grant.expires_at).getTime() === soon.getTime() ? grant : undefined;
    });
    expect(capped).toMatchObject({ id: before.id, active: true, revoked_at: null });
    expect(await sees(doctor(), patientId)).toBe('ok');
    expect(new Date((await grantOf(patientId, otherDoctorId))!.expires_at).getTime()).toBe(soon.getTime());
    // An hour and a minute later, both have ended with the link.
    const later = new Date(soon.getTime() + 60_000);
    expect(await access.patientDocuments(doctor(), { patient_id: patientId }, later).catch((e: { code: string }) => e.code)).toBe('NOT_FOUND');

    await changed({ link_id: open.linkId, owner_id: patientId, state: 'active', version: 5, providers_may_see_documents: false, expires_at: soon.toISOString() });
    await h.eventually('both grants ended', async () => ((await sees(doctor(), patientId)) === 'NOT_FOUND' && (await sees(otherDoctor(), patientId)) === 'NOT_FOUND' ? true : undefined));
    await h.eventually('two records', async () => (h.audit.filter((a) => a.action === 'provider-access.end' && a.patientId === patientId).length === 2 ? true : undefined));
  });

  it('a link revoked, or its setting turned off, while the grant was being written: the grant does not outlive the change', async () => {
    const patientId = newUserId();
    const revoked = link(patientId, { documents: true, later: 'revoked' });
    expect(await refusal(access.requestAccess(doctor(), { share_id: revoked.shareId }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
    expect(await sees(doctor(), patientId)).toBe('NOT_FOUND');
    const grant = (await grantOf(patientId, doctorId))!;
    expect(grant).toMatchObject({ source: 'share-link', active: false, revoked_at: expect.any(String) });
    await h.eventually('the ending in the history', async () => endRecords(grant.id)[0]);

    const turnedOff = link(patientId, { documents: true, later: 'documents-off' });
    expect(await refusal(access.requestAccess(otherDoctor(), { share_id: turnedOff.shareId }))).toMatchObject({ code: 'CONFLICT', message: PROVIDER_MESSAGES.linkChanged });
    expect(await sees(otherDoctor(), patientId)).toBe('NOT_FOUND');
  });
});
