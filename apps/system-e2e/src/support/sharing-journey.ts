import { randomBytes } from 'node:crypto';
import type { HistoryPage, ShareLinkItem, SummaryItem } from '@medfolio/contracts';
import { call, type Mailbox, type Reply } from './journey';
import { waitFor } from './processes';
import { signUp } from './summary-journey';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

const NOT_VALID = 'This link is not valid.';

/** The public headers on an answer where a share id travels. */
function checkShareHeaders(reply: Reply, what: string): void {
  const headers = { referrer: reply.headers.get('referrer-policy'), robots: reply.headers.get('x-robots-tag'), cache: reply.headers.get('cache-control') };
  check(headers.referrer === 'no-referrer' && headers.robots === 'noindex' && headers.cache === 'no-store', `the share headers on ${what}`, headers);
}

/**
 * Share links end to end, as the web app and a doctor use them: the owner confirms a summary and makes
 * a link with e-mail on view; anyone holding it (signed out, or another user) reads the confirmed
 * summary; guessed, foreign, revoked ids answer the same 404; a passcode link stops guessing at the
 * limit; each view is in the owner's history; the e-mail on view comes once per hour.
 */
export async function sharingJourney(base: string, mailbox: Mailbox): Promise<void> {
  const owner = await signUp(base, mailbox, 'Lee');
  const other = await signUp(base, mailbox, 'Ray');
  const added = await call<SummaryItem>(base, 'POST', '/api/summary/facts/', { section: 'allergies', text: 'Penicillin (hives)' }, owner.token);
  check(added.status === 200, 'add a fact', added.body);

  // Before the patient's review: a link says so plainly and claims nothing about any section.
  const early = await call<ShareLinkItem>(base, 'GET', '/api/share-links/default/', undefined, owner.token);
  check(early.status === 200, 'the default link before the review', early.body);
  const before = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${encodeURIComponent(early.body.share_id)}`);
  check(
    before.status === 200 && before.body[0]?.status === 'unreviewed' && before.body[0].sections.length === 0 && !JSON.stringify(before.body).includes('Penicillin'),
    'a link opened before the review says so and claims nothing',
    before.body,
  );
  const fhirBefore = await fetch(`${base}/api/summary/fhir/?user=${encodeURIComponent(early.body.share_id)}`);
  const bundleBefore = JSON.stringify(await fhirBefore.json());
  check(
    fhirBefore.status === 200 && bundleBefore.includes('"status":"preliminary"') && bundleBefore.includes('The patient has not reviewed this summary yet.') && !bundleBefore.includes('Not recorded') && !bundleBefore.includes('Penicillin'),
    'its FHIR says the same (preliminary, nothing recorded or claimed)',
    bundleBefore.slice(0, 400),
  );

  const confirmed = await call<SummaryItem>(base, 'POST', '/api/summary/confirm/', { version: added.body.version }, owner.token);
  check(confirmed.status === 200, 'confirm', confirmed.body);

  const made = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Lee', notify_on_view: true }, owner.token);
  check(made.status === 201 && /^[A-Za-z0-9_-]{22}$/.test(made.body.share_id), 'make a link', made.body);
  const link = made.body;
  check(link.url.endsWith(`/summary/${link.share_id}`), 'the link URL', link.url);
  const defaultLink = await call<ShareLinkItem>(base, 'GET', '/api/share-links/default/', undefined, owner.token);
  check(defaultLink.status === 200 && defaultLink.body.purpose === 'default', 'the default link', defaultLink.body);

  const path = (id: string) => `/api/summary/?user=${encodeURIComponent(id)}`;
  for (const [who, token] of [['signed out', undefined], ['another user', other.token]] as const) {
    const shared = await call<SummaryItem[]>(base, 'GET', path(link.share_id), undefined, token);
    check(shared.status === 200, `${who} reads the shared summary`, shared.body);
    checkShareHeaders(shared, `the shared summary (${who})`);
    const item = shared.body[0];
    check(item?.shared?.label === 'For Dr Lee' && item.documents.length === 0, 'the shared item', item);
    check(item.sections.some((s) => s.facts.some((f) => f.text === 'Penicillin (hives)' && f.sources.length === 0)), 'the shared fact', item.sections);
    check(item.status === 'ready' && item.confirmed_version === confirmed.body.confirmed_version, 'the shared item is the confirmed version', item);
  }

  const otherLink = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'Mine' }, other.token);
  const refused = [owner.id, randomBytes(16).toString('base64url'), `${link.share_id}x`];
  for (const id of refused) {
    const reply = await call<{ message: string }>(base, 'GET', path(id));
    check(reply.status === 404 && reply.body.message === NOT_VALID, `404 for ${id === owner.id ? "the owner's user id" : 'a guessed id'}`, reply);
    checkShareHeaders(reply, 'a 404');
  }
  const foreignRevoke = await call(base, 'POST', `/api/share-links/${otherLink.body.id}/revoke/`, undefined, owner.token);
  check(foreignRevoke.status === 404, "the owner cannot revoke another user's link", foreignRevoke);

  // The view e-mail: two views, one e-mail (at most one per link per hour).
  const me = await call<{ email: string }>(base, 'GET', '/api/profile/', undefined, owner.token);
  const viewMails = async () => (await mailbox.textsTo(me.body.email)).filter((text) => text.includes("through the link 'For Dr Lee'"));
  await waitFor('the view e-mail', async () => ((await viewMails()).length >= 1 ? true : undefined));
  check((await viewMails()).length === 1, 'one view e-mail for two views', await viewMails());

  // Every view is in the owner's history.
  const history = await waitFor('the views in the history', async () => {
    const page = (await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, owner.token)).body;
    const views = page.results.filter((e) => e.action === 'summary.shared-view' && e.entity_id === link.id && e.outcome === 'success');
    return views.length >= 2 ? views : undefined;
  });
  check(history.every((e) => e.what === 'Your summary was viewed through a shared link' && e.entity_type === 'share-link'), 'the history entries', history);
  check(history.some((e) => e.who === 'someone with your shared link'), 'the signed-out view is "someone with your shared link"', history);

  // A passcode link: asked first; guessing stops at the limit.
  const guarded = (await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'Guarded', passcode: 'blue-heron' }, owner.token)).body;
  const asked = await call<{ message: string }>(base, 'GET', path(guarded.share_id));
  check(asked.status === 403 && asked.body.message === 'This link needs a passcode.', 'the passcode is asked', asked);
  const unlocked = await call<{ view_token: string }>(base, 'POST', '/api/summary/unlock/', { user: guarded.share_id, passcode: 'blue-heron' });
  check(unlocked.status === 200, 'the right passcode', unlocked.body);
  checkShareHeaders(unlocked, 'the unlock answer');
  const opened = await call<SummaryItem[]>(base, 'GET', `${path(guarded.share_id)}&view_token=${encodeURIComponent(unlocked.body.view_token)}`);
  check(opened.status === 200 && opened.body[0]?.shared?.label === 'Guarded', 'the summary with the view token', opened.body);
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await call(base, 'POST', '/api/summary/unlock/', { user: guarded.share_id, passcode: `guess-${i}` })).status);
  check(JSON.stringify(statuses) === JSON.stringify([401, 401, 401, 401, 401, 404, 404]), 'five wrong passcodes, then the link is locked', statuses);

  // Revoked at once.
  const revoked = await call<ShareLinkItem>(base, 'POST', `/api/share-links/${link.id}/revoke/`, undefined, owner.token);
  check(revoked.status === 200 && revoked.body.revoked_at !== null, 'revoke', revoked.body);
  const gone = await call<{ message: string }>(base, 'GET', path(link.share_id));
  check(gone.status === 404 && gone.body.message === NOT_VALID, 'a revoked link answers 404', gone);
  const page = await fetch(`${base}/summary/${link.share_id}`, { headers: { accept: 'text/html' } });
  checkShareHeaders({ status: page.status, body: await page.text(), headers: page.headers }, 'the /summary/{shareId} page');
}
