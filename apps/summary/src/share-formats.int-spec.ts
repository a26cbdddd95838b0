import { randomUUID } from 'node:crypto';
import type { Bundle } from '@medplum/fhirtypes';
import { shlFileToken } from '@medfolio/clinical';
import { validateIpsBundle } from '@medfolio/clinical/fhir-testing';
import {
  SHARE_PASSCODE_ATTEMPTS,
  SHARING_MESSAGES,
  type AuditEventDto,
  type CallerIdentity,
} from '@medfolio/contracts';
import { receiveShl, refusal } from '@medfolio/testing';
import { ShareFormatsService } from './services/share-formats.service';
import { SharingService } from './services/sharing.service';
import { SummaryService } from './services/summary.service';
import { pdfText } from './testing/pdf-text';
import { shlHttp } from './testing/shl-http';
import { SummaryHarness } from './testing/summary-harness';

/**
 * The summary's formats on real PostgreSQL and NATS JetStream: the IPS Bundle and the PDF read like
 * the summary (owner or share id, passcode, audit), and SMART Health Links read by a receiver written
 * from the spec (the HTTP exchange handed straight to the service, as the gateway does), with the
 * bad cases: wrong passcode (attempts left, then locked), revoked, expired, tampered URLs.
 */
const h = new SummaryHarness();
beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop());

const person = (userId?: string): CallerIdentity => ({
  ...(userId ? { userId } : {}),
  roles: [],
  correlationId: randomUUID(),
  ip: '198.51.100.7',
  userAgent: 'shl-client/1.0',
});
const formats = () => h.get(ShareFormatsService);
const sharing = () => h.get(SharingService);
const summaries = () => h.get(SummaryService);

/** What the gateway does with a manifest or file request, straight to the service. */
const http = shlHttp(formats, () => person());

/** An owner with a confirmed summary: an allergy, a medication, a hidden medication. */
async function ownerWithSummary(): Promise<string> {
  const ownerId = randomUUID();
  const owner = person(ownerId);
  await summaries().add(owner, { section: 'allergies', text: 'Penicillin (hives)' });
  await summaries().add(owner, { section: 'medications', text: 'Metformin 500 mg twice daily' });
  const withHidden = await summaries().add(owner, { section: 'medications', text: 'Sertraline 50 mg daily' });
  const hidden = withHidden.sections
    .find((s) => s.key === 'medications')
    ?.facts.find((f) => f.text.startsWith('Sertraline'));
  await summaries().hide(owner, { fact_id: hidden?.id ?? '', hidden: true });
  await summaries().confirm(owner, { version: 4 });
  return ownerId;
}

const texts = (bundle: Bundle): string => JSON.stringify(bundle);

it('serves the IPS Bundle to the owner and through a share link (confirmed, hidden facts left out), valid and audited', async () => {
  const ownerId = await ownerWithSummary();
  const own = (await formats().fhir(person(ownerId), { user: ownerId })) as unknown as Bundle;
  expect(validateIpsBundle(own)).toEqual([]);
  expect(texts(own)).toContain('Metformin 500 mg twice daily');
  expect(texts(own)).toContain(ownerId); // the owner's own copy names the patient by id

  const link = await sharing().ensure(person(ownerId), { purpose: 'default' });
  const shared = (await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle;
  expect(validateIpsBundle(shared)).toEqual([]);
  expect(texts(shared)).toContain('Penicillin (hives)');
  expect(texts(shared)).not.toContain('Sertraline');
  expect(texts(shared)).not.toContain(ownerId);
  expect(texts(shared)).not.toContain(link.share_id);
  await h.eventually('the view record', async () =>
    h.audit.find(
      (r: AuditEventDto) => r.action === 'summary.shared-view' && r.entityId === link.id && r.outcome === 'success',
    ),
  );
  expect((await sharing().list(person(ownerId))).find((l) => l.id === link.id)?.view_count).toBe(1);

  // Nobody else's id opens anything.
  for (const user of [ownerId, 'AAAAAAAAAAAAAAAAAAAAAA', `${link.share_id}x`]) {
    expect(await refusal(formats().fhir(person(randomUUID()), { user }))).toMatchObject({
      code: 'NOT_FOUND',
      message: SHARING_MESSAGES.notValid,
    });
  }
});

it('prints the PDF with the link and asks a passcode link for its passcode first', async () => {
  const ownerId = await ownerWithSummary();
  const own = await formats().pdf(person(ownerId), { user: ownerId, size: 'letter' });
  expect(own.filename).toMatch(/^Medfolio_summary_\d{4}-\d{2}-\d{2}_letter\.pdf$/);
  const bytes = Buffer.from(own.content_base64, 'base64');
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.toString('latin1')).toContain('/MediaBox [0 0 612 792]');

  const guarded = await sharing().create(person(ownerId), {
    label: 'For Dr Lee',
    passcode: 'blue-heron',
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(await refusal(formats().pdf(person(), { user: guarded.share_id }))).toMatchObject({
    code: 'FORBIDDEN',
    message: SHARING_MESSAGES.passcodeRequired,
  });
  const { view_token } = await sharing().unlock(person(), { user: guarded.share_id, passcode: 'blue-heron' });
  const shared = await formats().pdf(person(), { user: guarded.share_id, view_token, size: 'a4' });
  expect(Buffer.from(shared.content_base64, 'base64').toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
});

it('before the patient reviewed anything, a link says so everywhere and claims nothing: page, PDF and FHIR', async () => {
  const ownerId = randomUUID();
  const owner = person(ownerId);
  // The patient's documents mention an allergy and a medicine, but nothing was confirmed yet.
  await summaries().add(owner, { section: 'allergies', text: 'Penicillin (hives)' });
  await summaries().add(owner, { section: 'medications', text: 'Metformin 500 mg twice daily' });
  const link = await sharing().ensure(owner, { purpose: 'default' });

  const [page] = await summaries().get(person(), { user: link.share_id });
  expect(page).toMatchObject({ status: 'unreviewed', version: 0, confirmed_version: null, summary: '', sections: [], documents: [] });
  expect(JSON.stringify(page)).not.toContain('Penicillin');

  const sharedPdf = await pdfText((await formats().pdf(person(), { user: link.share_id, size: 'a4' })).content_base64);
  expect(sharedPdf).toContain('The patient has not reviewed this summary yet.');
  expect(sharedPdf).toContain('not yet reviewed by the patient');
  expect(sharedPdf).not.toContain('and reviewed by the patient');
  expect(sharedPdf).not.toContain('Not recorded');
  expect(sharedPdf).not.toContain('Penicillin');

  const bundle = (await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle;
  expect(validateIpsBundle(bundle)).toEqual([]);
  const composition = bundle.entry?.[0]?.resource as { status: string; attester?: unknown; section: { text: { div: string }; emptyReason?: { coding: { code: string }[] } }[] };
  expect(composition.status).toBe('preliminary');
  expect(composition.attester).toBeUndefined();
  expect(composition.section.length).toBeGreaterThan(0);
  for (const section of composition.section) {
    expect(section.text.div).toContain('The patient has not reviewed this summary yet.');
    expect(section.emptyReason?.coding[0]?.code).toBe('withheld');
  }
  expect(texts(bundle)).not.toContain('Not recorded');
  expect(texts(bundle)).not.toContain('Penicillin');

  // The owner's own print of this unconfirmed version shows it, and says it is not reviewed yet.
  const ownPdf = await pdfText((await formats().pdf(owner, { user: ownerId, size: 'a4' })).content_base64);
  expect(ownPdf).toContain('Penicillin');
  expect(ownPdf).toContain('This version has not been reviewed by the patient yet.');
  expect(ownPdf).not.toContain('and reviewed by the patient');

  // Once confirmed, the link shows that version, and its PDF says it was reviewed.
  await summaries().confirm(owner, { version: 2 });
  const [confirmed] = await summaries().get(person(), { user: link.share_id });
  expect(confirmed).toMatchObject({ status: 'ready', confirmed_version: 2 });
  const confirmedPdf = await pdfText((await formats().pdf(person(), { user: link.share_id, size: 'a4' })).content_base64);
  expect(confirmedPdf).toContain('Penicillin');
  expect(confirmedPdf).toContain('and reviewed by the patient');
  expect(confirmedPdf).not.toContain('not reviewed');
  const confirmedBundle = (await formats().fhir(person(), { user: link.share_id })) as unknown as Bundle;
  expect((confirmedBundle.entry?.[0]?.resource as { status: string }).status).toBe('final');
});

it('lets an SHL receiver written from the spec read the summary as an IPS Bundle, embedded or by location', async () => {
  const ownerId = await ownerWithSummary();
  const plain = await sharing().create(person(ownerId), { label: 'Clinic app' });
  expect(plain.shl).toBeNull();
  expect(plain.qr_text).toBe(plain.url);
  const link = await sharing().update(person(ownerId), { link_id: plain.id, shl: true });
  expect(link.shl).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
  expect(link.qr_text).toBe(`${link.url}#${link.shl}`);

  const embedded = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee, City Clinic' });
  if (!embedded.ok) throw new Error(`refused: ${JSON.stringify(embedded)}`);
  expect(embedded.payload).toMatchObject({ flag: 'L', label: 'Clinic app', v: 1 });
  // The manifest URL's secrets are in its query (logs show paths only).
  expect(new URL(embedded.payload.url).pathname).toBe('/api/summary/shl/');
  expect(embedded.files).toHaveLength(1);
  expect(embedded.files[0]).toMatchObject({
    contentType: 'application/fhir+json',
    cty: 'application/fhir+json',
    via: 'embedded',
  });
  const bundle = embedded.files[0]?.json as Bundle;
  expect(validateIpsBundle(bundle)).toEqual([]);
  expect(texts(bundle)).toContain('Metformin 500 mg twice daily');
  expect(texts(bundle)).not.toContain('Sertraline');

  const located = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee', embeddedLengthMax: 10 });
  if (!located.ok) throw new Error(`refused: ${JSON.stringify(located)}`);
  expect(located.files[0]?.via).toBe('location');
  expect(validateIpsBundle(located.files[0]?.json as Bundle)).toEqual([]);

  // Views through the SHL are the link's views, audited.
  expect((await sharing().list(person(ownerId))).find((l) => l.id === link.id)?.view_count).toBe(2);

  // Turning SHL off makes the old SHL worthless; on again gives a new key.
  const off = await sharing().update(person(ownerId), { link_id: link.id, shl: false });
  expect(off.shl).toBeNull();
  expect(await receiveShl(link.qr_text, http, { recipient: 'Dr Lee' })).toMatchObject({ ok: false, status: 404 });
  const on = await sharing().update(person(ownerId), { link_id: link.id, shl: true });
  expect(on.shl).not.toBe(link.shl);
  expect(await receiveShl(on.qr_text, http, { recipient: 'Dr Lee' })).toMatchObject({ ok: true });
});

it('counts each fetch of a file location as a view (audited, e-mailed), and refuses file tokens made to last longer than an hour', async () => {
  const ownerId = await ownerWithSummary();
  h.ownerEmails.set(ownerId, `shl-${ownerId}@example.com`);
  const link = await sharing().create(person(ownerId), { label: 'Clinic app', shl: true, notify_on_view: true });
  const payload = JSON.parse(Buffer.from((link.shl ?? '').slice('shlink:/'.length), 'base64url').toString()) as {
    url: string;
    key: string;
  };
  const tag = new URL(payload.url).searchParams.get('tag') ?? '';
  const viewCount = async () => (await sharing().list(person(ownerId))).find((l) => l.id === link.id)?.view_count;
  const views = () =>
    h.audit.filter((r) => r.action === 'summary.shared-view' && r.entityId === link.id && r.outcome === 'success');

  // A manifest that gives a location hands nothing out yet; each fetch of the location is one view.
  const manifest = await formats().manifest(person(), {
    user: link.share_id,
    tag,
    recipient: 'Dr Lee',
    embeddedLengthMax: 0,
  });
  const location = manifest.files[0]?.location ?? '';
  expect(await viewCount()).toBe(0);
  expect((await http.get(location)).status).toBe(200);
  expect((await http.get(location)).status).toBe(200);
  expect(await viewCount()).toBe(2);
  await h.eventually('two view records', async () => (views().length === 2 ? true : undefined));
  await h.eventually('the view e-mail', async () =>
    h.mail.some((m) => m.to === `shl-${ownerId}@example.com`) ? true : undefined,
  );

  // The SHL key is in the payload: its holder can make a file token of any lifetime. Ten years is refused.
  const tenYears = shlFileToken(payload.key, `${link.share_id}:`, Math.floor(Date.now() / 1000) + 10 * 365 * 86_400);
  expect(await refusal(formats().file(person(), { user: link.share_id, tag, token: tenYears }))).toMatchObject({
    code: 'NOT_FOUND',
    message: SHARING_MESSAGES.notValid,
  });
  expect(await viewCount()).toBe(2);
  await h.eventually('the refusal in the history', async () =>
    h.audit.find((r) => r.action === 'summary.shared-view' && r.entityId === link.id && r.outcome === 'denied'),
  );
});

it('refuses the bad cases: wrong passcode with attempts left then locked, revoked, expired, tampered tag or token', async () => {
  const ownerId = await ownerWithSummary();
  const owner = person(ownerId);
  const guarded = await sharing().create(owner, {
    label: 'Passcode SHL',
    passcode: 'blue-heron',
    shl: true,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect(guarded.shl).not.toBeNull();
  const ok = await receiveShl(guarded.qr_text, http, { recipient: 'Dr Lee', passcode: 'blue-heron' });
  expect(ok).toMatchObject({ ok: true, payload: { flag: 'P', label: 'Passcode SHL' } });
  if (ok.ok) expect(ok.payload.exp).toBe(Math.floor(new Date(guarded.expires_at ?? '').getTime() / 1000));
  expect(await receiveShl(guarded.qr_text, http, { recipient: 'Dr Lee' })).toMatchObject({
    ok: false,
    body: 'needs a passcode',
  });
  for (let left = SHARE_PASSCODE_ATTEMPTS - 1; left >= 0; left--) {
    expect(await receiveShl(guarded.qr_text, http, { recipient: 'Dr Lee', passcode: `guess-${left}` })).toMatchObject({
      ok: false,
      status: 401,
      body: { remainingAttempts: left },
    });
  }
  // Locked: the right passcode no longer opens it.
  expect(await receiveShl(guarded.qr_text, http, { recipient: 'Dr Lee', passcode: 'blue-heron' })).toMatchObject({
    ok: false,
    status: 404,
  });

  const revoked = await sharing().create(owner, { label: 'Revoked', shl: true });
  const located = await receiveShl(revoked.qr_text, http, { recipient: 'Dr Lee', embeddedLengthMax: 0 });
  expect(located.ok).toBe(true);
  const manifest = (
    await http.postJson(JSON.parse(Buffer.from((revoked.shl ?? '').slice(8), 'base64url').toString()).url as string, {
      recipient: 'x',
      embeddedLengthMax: 0,
    })
  ).body as { files: { location: string }[] };
  const location = manifest.files[0]?.location ?? '';
  expect((await http.get(location)).status).toBe(200);
  await sharing().revoke(owner, { link_id: revoked.id });
  expect(await receiveShl(revoked.qr_text, http, { recipient: 'Dr Lee' })).toMatchObject({ ok: false, status: 404 });
  expect((await http.get(location)).status).toBe(404);

  const expired = await sharing().create(owner, {
    label: 'Expired',
    shl: true,
    expires_at: new Date(Date.now() + 60_000).toISOString(),
  });
  await h.sql(`UPDATE summary.share_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
  expect(await receiveShl(expired.qr_text, http, { recipient: 'Dr Lee' })).toMatchObject({ ok: false, status: 404 });

  const live = await sharing().create(owner, { label: 'Live', shl: true });
  const url = new URL(JSON.parse(Buffer.from((live.shl ?? '').slice(8), 'base64url').toString()).url as string);
  const tag = url.searchParams.get('tag') ?? '';
  const tampered = `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`;
  expect(
    await refusal(formats().manifest(person(), { user: live.share_id, tag: tampered, recipient: 'x' })),
  ).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  const forged = `${Math.floor(Date.now() / 1000) + 600}.${'A'.repeat(43)}`;
  expect(await refusal(formats().file(person(), { user: live.share_id, tag, token: forged }))).toMatchObject({
    code: 'NOT_FOUND',
  });
  // A link that is not an SHL has no manifest at all.
  const plain = await sharing().create(owner, { label: 'Plain' });
  expect(await refusal(formats().manifest(person(), { user: plain.share_id, tag, recipient: 'x' }))).toMatchObject({
    code: 'NOT_FOUND',
  });
}, 60_000);
