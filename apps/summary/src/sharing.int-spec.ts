import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  SHARE_PASSCODE_ATTEMPTS,
  SHARING_MESSAGES,
  SHARING_SUBJECTS,
  STREAMS,
  type AuditEventDto,
  type CallerIdentity,
  type ShareLinkChangedEvent,
  type SummaryItem,
} from '@medfolio/contracts';
import type { EventEnvelope } from '@medfolio/messaging';
import { refusal } from '@medfolio/testing';
import { SharingService } from './services/sharing.service';
import { SummaryService } from './services/summary.service';
import { SummaryHarness } from './testing/summary-harness';

/**
 * Share links on real PostgreSQL and NATS JetStream: made once per purpose, stored hashed and sealed,
 * their events; the public view (confirmed version only, nothing private); every unusable id the
 * same 404; passcode attempts limited, also in parallel; views audited, counted, e-mailed once an hour.
 */
const h = new SummaryHarness();
const changed: ShareLinkChangedEvent[] = [];

beforeAll(async () => {
  await h.start();
  await h.bus.consume({ stream: STREAMS.SUMMARY.name, durable: 'test-share-changed', filterSubjects: [SHARING_SUBJECTS.changed] }, async (event: EventEnvelope) => {
    changed.push(event.data as ShareLinkChangedEvent);
  });
}, 60_000);
afterAll(() => h.stop());

const person = (userId?: string): CallerIdentity => ({ ...(userId ? { userId } : {}), roles: [], correlationId: randomUUID(), ip: '203.0.113.9', userAgent: 'it-browser/1.0' });
const sharing = () => h.get(SharingService);
const summaries = () => h.get(SummaryService);
const view = (shareId: string, caller = person(), viewToken?: string) =>
  summaries().get(caller, { user: shareId, ...(viewToken ? { view_token: viewToken } : {}) }).then((items) => items[0]!);

/** An owner with a confirmed summary (version 1), then a newer unconfirmed change (version 2). */
async function ownerWithSummary(): Promise<string> {
  const ownerId = randomUUID();
  const owner = person(ownerId);
  await summaries().add(owner, { section: 'allergies', text: 'Penicillin (hives)' });
  const hiddenLater = await summaries().add(owner, { section: 'medications', text: 'Sertraline 50 mg daily' });
  const factId = hiddenLater.sections.find((s) => s.key === 'medications')!.facts[0]!.id;
  await summaries().hide(owner, { fact_id: factId, hidden: true });
  await summaries().confirm(owner, { version: 3 });
  await summaries().add(owner, { section: 'current_conditions', text: 'Not yet reviewed condition' });
  return ownerId;
}

it('makes one default link per owner on first use, 128 random bits, stored only hashed and sealed, with its event', async () => {
  const ownerId = randomUUID();
  const [first, again] = await Promise.all([sharing().ensure(person(ownerId), { purpose: 'default' }), sharing().ensure(person(ownerId), { purpose: 'default' })]);
  expect(again.id).toBe(first.id);
  expect(first.share_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(Buffer.from(first.share_id, 'base64url')).toHaveLength(16);
  expect(first).toMatchObject({ purpose: 'default', label: 'My summary link', version: 1, has_passcode: false, locked: false, view_count: 0, revoked_at: null });
  expect(first.url).toBe(`http://localhost:3000/summary/${first.share_id}`);
  // The default link lives 30 days from when it is made (shown on the dashboard, changeable); the wallet's has no expiry.
  const days = (Date.parse(first.expires_at!) - Date.now()) / (24 * 3600 * 1000);
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  const wallet = await sharing().ensure(person(ownerId), { purpose: 'wallet', label: 'Pass' });
  expect(wallet.id).not.toBe(first.id);
  expect(wallet.expires_at).toBeNull();

  const [row] = await h.sql<Record<string, unknown>>(`SELECT * FROM summary.share_links WHERE id = $1`, [first.id]);
  expect(row!['share_hash']).toBe(createHash('sha256').update(first.share_id).digest('hex'));
  expect(JSON.stringify(row)).not.toContain(first.share_id);
  expect(await sharing().resolve({ share_id: first.share_id })).toEqual({
    link_id: first.id,
    owner_id: ownerId,
    label: 'My summary link',
    purpose: 'default',
    providers_may_see_documents: false,
    expires_at: first.expires_at,
  });
  await h.eventually('the changed event', async () => (changed.some((e) => e.link_id === first.id && e.state === 'active') ? true : undefined));

  const revoked = await sharing().revoke(person(ownerId), { link_id: first.id });
  expect(revoked.version).toBe(2);
  expect(await refusal(sharing().resolve({ share_id: first.share_id }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  await h.eventually('the revoked event', async () => (changed.some((e) => e.link_id === first.id && e.state === 'revoked' && e.version === 2) ? true : undefined));
  // A revoked default is replaced on the next use.
  expect((await sharing().ensure(person(ownerId), { purpose: 'default' })).id).not.toBe(first.id);
});

it('shows anyone holding the link the latest confirmed version, without documents, sources or review state; audited and counted', async () => {
  const ownerId = await ownerWithSummary();
  const link = await sharing().ensure(person(ownerId), { purpose: 'default' });
  const viewer = person();
  const item: SummaryItem = await view(link.share_id, viewer);
  expect(item).toMatchObject({ status: 'ready', version: 3, confirmed_version: 3, documents: [], shared: { label: 'My summary link', expires_at: link.expires_at } });
  const facts = item.sections.flatMap((s) => s.facts);
  expect(facts.map((f) => f.text)).toEqual(['Penicillin (hives)']);
  expect(facts[0]).toMatchObject({ hidden: false, edited: false, added_by_patient: false, sources: [] });
  expect(item.summary).not.toContain('Sertraline');
  expect(item.summary).not.toContain('Not yet reviewed');
  // The owner's own id still shows the owner everything, latest version.
  const [own] = await summaries().get(person(ownerId), { user: ownerId });
  expect(own!.version).toBe(4);

  const audit = await h.eventually('the view record', async () => h.audit.find((r: AuditEventDto) => r.action === 'summary.shared-view' && r.entityId === link.id));
  expect(audit).toMatchObject({ actor: 'anonymous', patientId: ownerId, entityType: 'share-link', outcome: 'success', policy: `share-link:${link.id}`, ip: '203.0.113.9', userAgent: 'it-browser/1.0' });
  // The owner opening their own link (View Summary) sees their own latest summary; not counted as a view.
  const ownView = await view(link.share_id, person(ownerId));
  expect(ownView.version).toBe(4);
  expect(ownView.shared).toBeUndefined();
  const [listed] = (await sharing().list(person(ownerId))).filter((l) => l.id === link.id);
  expect(listed).toMatchObject({ view_count: 1 });
  expect(listed!.last_viewed_at).not.toBeNull();
});

it("answers another user's ids, a random 128-bit id, a revoked id and an expired id with the same 404", async () => {
  const ownerId = await ownerWithSummary();
  const owner = person(ownerId);
  const revoked = await sharing().create(owner, { label: 'Old clinic' });
  await sharing().revoke(owner, { link_id: revoked.id });
  const expired = await sharing().create(owner, { label: 'Short', expires_at: new Date(Date.now() + 60_000).toISOString() });
  await h.sql(`UPDATE summary.share_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
  const other = person(randomUUID());
  const ids = [ownerId, randomBytes(16).toString('base64url'), revoked.share_id, expired.share_id, 'short', `${revoked.share_id}x`];
  for (const id of ids) {
    for (const caller of [person(), other]) {
      expect(await refusal(view(id, caller))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
    }
  }
  // Another user cannot manage the owner's links either.
  const live = await sharing().create(owner, { label: 'For Dr Lee' });
  expect(await refusal(sharing().revoke(other, { link_id: live.id }))).toMatchObject({ code: 'NOT_FOUND' });
  expect(await refusal(sharing().update(other, { link_id: live.id, label: 'Mine' }))).toMatchObject({ code: 'NOT_FOUND' });
  expect((await sharing().list(other)).map((l) => l.id)).not.toContain(live.id);
  expect((await view(live.share_id, other)).status).toBe('ready');
  expect(await refusal(sharing().create(owner, { label: 'Past', expires_at: '2001-01-01T00:00:00Z' }))).toMatchObject({ code: 'VALIDATION_FAILED' });
});

it('asks for the passcode first, and stops guessing at the limit (also in parallel) until the owner sets a new one', async () => {
  const ownerId = await ownerWithSummary();
  const owner = person(ownerId);
  const link = await sharing().create(owner, { label: 'For Dr Lee', passcode: 'blue-heron' });
  expect(link.has_passcode).toBe(true);
  expect(await refusal(view(link.share_id))).toMatchObject({ code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired });
  const unlocked = await sharing().unlock(person(), { user: link.share_id, passcode: 'blue-heron' });
  expect((await view(link.share_id, person(), unlocked.view_token)).version).toBe(3);
  expect(await refusal(view(link.share_id, person(), `${unlocked.view_token.slice(0, -2)}AA`))).toMatchObject({ code: 'FORBIDDEN' });

  for (let left = SHARE_PASSCODE_ATTEMPTS - 1; left >= 0; left--) {
    expect(await refusal(sharing().unlock(person(), { user: link.share_id, passcode: `guess-${left}` }))).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: SHARING_MESSAGES.wrongPasscode(left),
      details: { remaining_attempts: [String(left)] },
    });
  }
  // Locked: even the right passcode, and the token given before, no longer open it.
  expect(await refusal(sharing().unlock(person(), { user: link.share_id, passcode: 'blue-heron' }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  expect(await refusal(view(link.share_id, person(), unlocked.view_token))).toMatchObject({ code: 'NOT_FOUND' });
  expect((await sharing().list(owner)).find((l) => l.id === link.id)).toMatchObject({ locked: true });

  // The owner sets a new passcode: the link opens again, the old token does not.
  await sharing().update(owner, { link_id: link.id, passcode: 'green-egret' });
  expect(await refusal(view(link.share_id, person(), unlocked.view_token))).toMatchObject({ code: 'FORBIDDEN' });
  const again = await sharing().unlock(person(), { user: link.share_id, passcode: 'green-egret' });
  expect((await view(link.share_id, person(), again.view_token)).status).toBe('ready');

  // Twelve guesses at once: no more than the limit are ever checked.
  const fresh = await sharing().create(owner, { label: 'Parallel', passcode: 'red-kite' });
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => refusal(sharing().unlock(person(), { user: fresh.share_id, passcode: `wrong-${i}` }))));
  expect(answers.filter((a) => (a as { code?: string }).code === 'UNAUTHENTICATED')).toHaveLength(SHARE_PASSCODE_ATTEMPTS);
  expect(answers.filter((a) => (a as { code?: string }).code === 'NOT_FOUND')).toHaveLength(12 - SHARE_PASSCODE_ATTEMPTS);
  const failures = await h.eventually('the failure records', async () => {
    const found = h.audit.filter((r) => r.entityId === fresh.id && r.outcome === 'failure');
    return found.length >= SHARE_PASSCODE_ATTEMPTS ? found : undefined;
  });
  expect(failures.map((r) => r.action).sort()).toEqual([...Array(SHARE_PASSCODE_ATTEMPTS - 1).fill('share-link.unlock'), 'share-link.locked'].sort());
}, 60_000);

it('resolves a passcode link for another service only with its view token', async () => {
  const ownerId = await ownerWithSummary();
  const owner = person(ownerId);
  const link = await sharing().create(owner, { label: 'For Dr Lee', passcode: 'blue-heron', providers_may_see_documents: true });
  const other = await sharing().create(owner, { label: 'Other', passcode: 'red-kite' });
  const needsPasscode = { code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired };
  expect(await refusal(sharing().resolve({ share_id: link.share_id }))).toMatchObject(needsPasscode);
  expect(await refusal(sharing().resolve({ share_id: link.share_id, view_token: 'not-a-token' }))).toMatchObject(needsPasscode);
  // Another link's token opens only that link.
  const otherToken = (await sharing().unlock(person(), { user: other.share_id, passcode: 'red-kite' })).view_token;
  expect(await refusal(sharing().resolve({ share_id: link.share_id, view_token: otherToken }))).toMatchObject(needsPasscode);

  const { view_token } = await sharing().unlock(person(), { user: link.share_id, passcode: 'blue-heron' });
  expect(await sharing().resolve({ share_id: link.share_id, view_token })).toMatchObject({ link_id: link.id, owner_id: ownerId, providers_may_see_documents: true });
  // Resolving is not a view.
  expect((await sharing().list(owner)).find((l) => l.id === link.id)).toMatchObject({ view_count: 0 });
  // A new passcode: the token given before no longer resolves the link.
  await sharing().update(owner, { link_id: link.id, passcode: 'green-egret' });
  expect(await refusal(sharing().resolve({ share_id: link.share_id, view_token }))).toMatchObject(needsPasscode);
  // A link without a passcode needs no token.
  const plain = await sharing().create(owner, { label: 'Plain' });
  expect(await sharing().resolve({ share_id: plain.share_id })).toMatchObject({ link_id: plain.id });
});

it("tells the share-link events' followers the documents setting and the expiry after each change", async () => {
  const ownerId = randomUUID();
  const owner = person(ownerId);
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  const link = await sharing().create(owner, { label: 'For Dr Lee', providers_may_see_documents: true, expires_at: expiresAt });
  await sharing().update(owner, { link_id: link.id, providers_may_see_documents: false, expires_at: null });
  await sharing().revoke(owner, { link_id: link.id });
  const events = await h.eventually('the three events', async () => {
    const found = changed.filter((e) => e.link_id === link.id);
    return found.length >= 3 ? found.sort((a, b) => a.version - b.version) : undefined;
  });
  expect(events.map(({ state, version, providers_may_see_documents, expires_at }) => ({ state, version, providers_may_see_documents, expires_at }))).toEqual([
    { state: 'active', version: 1, providers_may_see_documents: true, expires_at: new Date(expiresAt).toISOString() },
    { state: 'active', version: 2, providers_may_see_documents: false, expires_at: null },
    { state: 'revoked', version: 3, providers_may_see_documents: false, expires_at: null },
  ]);
});

it('e-mails the owner on view when asked, at most once per link per hour', async () => {
  const ownerId = await ownerWithSummary();
  h.ownerEmails.set(ownerId, 'ada@example.com');
  const link = await sharing().create(person(ownerId), { label: 'For Dr Lee', notify_on_view: true });
  const quiet = await sharing().create(person(ownerId), { label: 'Quiet' });
  await view(link.share_id);
  await view(link.share_id);
  await view(quiet.share_id);
  const mails = () => h.mail.filter((m) => m.to === 'ada@example.com');
  await h.eventually('the view e-mail', async () => (mails().length >= 1 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(mails()).toEqual([{ to: 'ada@example.com', data: { label: 'For Dr Lee', viewed_at: expect.stringMatching(/ UTC$/) }, idempotencyKey: expect.stringContaining(link.id) }]);
  // An hour later (moved back in the row, as time would), the next view e-mails again.
  await h.sql(`UPDATE summary.share_links SET last_notified_at = now() - interval '61 minutes' WHERE id = $1`, [link.id]);
  await view(link.share_id);
  await h.eventually('the second e-mail', async () => (mails().length === 2 ? true : undefined));
  // The address is kept sealed, never in the clear.
  const [row] = await h.sql<Record<string, unknown>>(`SELECT notify_email_sealed::text AS sealed FROM summary.share_links WHERE id = $1`, [link.id]);
  expect(String(row!['sealed'])).not.toContain(Buffer.from('ada@example.com').toString('hex'));
  // Turning it off stops the e-mails.
  await sharing().update(person(ownerId), { link_id: link.id, notify_on_view: false });
  await h.sql(`UPDATE summary.share_links SET last_notified_at = NULL WHERE id = $1`, [link.id]);
  await view(link.share_id);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(mails()).toHaveLength(2);
});
