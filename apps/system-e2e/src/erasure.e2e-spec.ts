import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FAMILY_MESSAGES, type DocumentListItem, type DownloadLinkReply, type FamilyOverview, type FamilyRecord, type FamilyRemovalReply, type ShareLinkItem, type SummaryItem } from '@medfolio/contracts';
import { as, grant, signUp, uploadFor } from './support/family-journey';
import { call, type Mailbox } from './support/journey';
import { startRig, stopRig, type Rig } from './support/fault-rig';
import { DEV_MAIL_JSON, startNode, waitFor, type Running } from './support/processes';
import { ScratchDatabase } from './support/scratch-database';

/**
 * Removing a family member (their record erased), on the built product in both run modes (one
 * process on PostgreSQL with in-process messaging; every service its own process on its own
 * PostgreSQL and NATS JetStream):
 * a guardian adds a child, uploads a document and makes a share link for them; a caregiver with
 * manage cannot remove the child, only the guardian can, typing the child's first name; then the
 * share link answers "not valid", the document is gone (its download link 404, the record refused),
 * and the guardian's own record (document, share link, profile) is intact.
 */
type Sql = (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** The journey, over HTTP against the running product; `sql` reads its database. */
async function erasureJourney(base: string, mailbox: Mailbox, sql: Sql): Promise<void> {
  const [ada, mona] = [await signUp(base, mailbox, 'Ada'), await signUp(base, mailbox, 'Mona')];
  const added = await as(base, ada)<FamilyRecord>('POST', '/api/family/members/', { first_name: 'Leo', last_name: 'Example', date_of_birth: '2016-03-10' });
  expect(added.status).toBe(201);
  const leo = added.body.patient_id;
  await grant(base, mailbox, ada, leo, mona, 'manage');

  // The guardian's own document and share link, and the child's.
  const own = await uploadFor(base, ada, undefined, 'ada-lab.pdf');
  expect(own.status).toBe(201);
  const ownLink = await as(base, ada)<ShareLinkItem>('POST', '/api/share-links/', { label: 'Mine' });
  expect(ownLink.status).toBe(201);
  const uploaded = await uploadFor(base, ada, leo, 'leo-vaccinations.pdf');
  expect(uploaded.status).toBe(201);
  const documentId = uploaded.body.documents[0]!.id;
  const link = await as(base, ada, leo)<ShareLinkItem>('POST', '/api/share-links/', { label: 'For the school nurse' });
  expect(link.status).toBe(201);
  expect((await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${link.body.share_id}`)).status).toBe(200);
  const download = await as(base, ada, leo)<DownloadLinkReply>('GET', `/api/get-document-download-link/${documentId}/`);
  expect(download.status).toBe(200);
  expect((await fetch(new URL(download.body.download_url, base))).status).toBe(200);

  // A caregiver with manage cannot remove the child; the guardian must type the first name.
  const byCaregiver = await as(base, mona)<{ message: string }>('DELETE', `/api/family/members/${leo}/`, { confirm_name: 'Leo' });
  expect(byCaregiver).toMatchObject({ status: 403, body: { message: FAMILY_MESSAGES.onlyGuardianRemoves('Leo') } });
  expect((await as(base, ada)<{ message: string }>('DELETE', `/api/family/members/${leo}/`)).body.message).toBe(FAMILY_MESSAGES.confirmNameNeeded('Leo'));
  const wrong = await as(base, ada)<{ message: string }>('DELETE', `/api/family/members/${leo}/`, { confirm_name: 'Lea' });
  expect(wrong).toMatchObject({ status: 400, body: { message: FAMILY_MESSAGES.confirmNameWrong('Leo') } });
  expect((await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${link.body.share_id}`)).status).toBe(200);

  const removed = await as(base, ada)<FamilyRemovalReply>('DELETE', `/api/family/members/${leo}/`, { confirm_name: 'Leo' });
  expect(removed.status).toBe(202);
  expect(removed.body).toMatchObject({ accepted: true, message: FAMILY_MESSAGES.erasing('Leo') });

  // At once: the record is not listed and nobody may open it, the guardian or the caregiver.
  const overview = await as(base, ada)<FamilyOverview>('GET', '/api/family/members/');
  expect(overview.body.records.map((r) => r.first_name)).toEqual(['Ada']);
  expect((await as(base, ada, leo)('GET', '/api/upload/')).status).toBe(403);
  expect((await as(base, mona, leo)('GET', '/api/upload/')).status).toBe(403);
  expect((await as(base, ada, leo)('GET', '/api/history/')).status).toBe(403);
  // The share link answers "not valid", and the document is gone (its link 404; the record refused).
  await waitFor('the share link refused', async () => ((await call(base, 'GET', `/api/summary/?user=${link.body.share_id}`)).status === 404 ? true : undefined), 15_000);
  await waitFor('the document erased', async () => ((await sql(`SELECT 1 FROM documents.documents WHERE owner_id = $1`, [leo])).length === 0 ? true : undefined), 15_000);
  expect((await fetch(new URL(download.body.download_url, base))).status).toBe(404);
  expect((await as(base, ada)('GET', `/api/get-document-download-link/${documentId}/`)).status).toBe(404);
  expect((await as(base, ada, leo)('GET', `/api/get-document-download-link/${documentId}/`)).status).toBe(403);
  for (const table of ['summary.share_links WHERE owner_id', 'summary.documents WHERE user_id', 'documents.household_members WHERE patient_id'])
    expect(await sql(`SELECT 1 FROM ${table} = $1`, [leo])).toEqual([]);
  await waitFor('every service recorded its part', async () => {
    const services = (await sql(`SELECT DISTINCT service FROM audit.audit_log WHERE action = 'record.erased' AND patient_id = $1`, [leo])).map((r) => r['service']).sort();
    return services.join(',') === 'connections,documents,summary,wallet' ? services : undefined;
  }, 15_000);

  // The guardian's own record is intact.
  const mine = await as(base, ada)<DocumentListItem[]>('GET', '/api/upload/');
  expect(mine.body.map((d) => d.filename)).toEqual(['ada-lab.pdf']);
  const ownDownload = await as(base, ada)<DownloadLinkReply>('GET', `/api/get-document-download-link/${own.body.documents[0]!.id}/`);
  expect((await fetch(new URL(ownDownload.body.download_url, base))).status).toBe(200);
  expect((await call(base, 'GET', `/api/summary/?user=${ownLink.body.share_id}`)).status).toBe(200);
  expect((await as(base, ada)<{ first_name: string }>('GET', '/api/profile/')).body.first_name).toBe('Ada');
  // And the same removal again: no such member.
  expect((await as(base, ada)('DELETE', `/api/family/members/${leo}/`, { confirm_name: 'Leo' })).status).toBe(404);
}


describe('removing a family member: one-process product on PostgreSQL', () => {
  const db = new ScratchDatabase('erasure_e2e');
  let dataDir: string;
  let running: Running | undefined;
  let base: string;
  let mailbox: Mailbox;

  const sql = (query: string, params: unknown[] = []) => db.sql(query, params);

  beforeAll(async () => {
    await db.create();
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-erasure-'));
    running = startNode('apps/medfolio/src/main.js', [], {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      DOCUMENT_QUOTA_FREE: '50',
      // Every plan may add family members here (the Family plan's requirement is identity's integration test).
      FAMILY_PLANS: 'free,basic,standard,plus,pro',
    });
    base = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(running!.output())?.[1], 120_000);
    mailbox = {
      textsTo: async (to) => (await call<{ to: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => m.text),
    };
  }, 180_000);

  afterAll(async () => {
    await running?.stop();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("erases a child's record: the share link is not valid, the document is gone, the guardian's own record is intact", async () => {
    try {
      await erasureJourney(base, mailbox, sql);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- product log (tail) ---\n${running!.output().slice(-3000)}`);
    }
  }, 240_000);
});

describe('removing a family member: every service its own process, on PostgreSQL and NATS JetStream', () => {
  const PORT_BASE = Number(process.env['ERASURE_PORT_BASE'] ?? 28300);
  let rig: Rig | undefined;

  beforeAll(async () => {
    rig = await startRig(PORT_BASE, { identity: { FAMILY_PLANS: 'free,basic,standard,plus,pro' }, documents: { DOCUMENT_QUOTA_FREE: '50' } });
  }, 240_000);
  afterAll(() => stopRig(rig), 60_000);

  it("erases a child's record through each service's durable consumer: the same outcome", async () => {
    const { product } = rig!;
    const mailbox: Mailbox = { textsTo: async (to) => product.smtp.received.filter((m) => m.recipients.includes(to)).map((m) => m.text) };
    try {
      await erasureJourney(product.base, mailbox, (query, params = []) => rig!.pg.query(product.database, query, params));
    } catch (error) {
      const logs = [...product.processes.entries()].map(([name, p]) => `--- ${name} ---\n${p.output().slice(-800)}`).join('\n');
      throw new Error(`${(error as Error).message}\n${logs}`);
    }
  }, 240_000);
});
