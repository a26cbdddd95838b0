import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FamilyRecord } from '@medfolio/contracts';
import { get } from './support/api';
import { as, familyJourney, grant, ownOnlyMatrix, roleMatrix, signUp, teenJourney } from './support/family-journey';
import { call, type Mailbox } from './support/journey';
import { DEV_MAIL_JSON, startNode, waitFor, type Running } from './support/processes';
import { ScratchDatabase } from './support/scratch-database';
import type { OpenApiDocument } from './support/security-matrix';

/**
 * Family and caregivers (issue 30) on the built one-process product over PostgreSQL: the journey
 * (add a child, upload for them, invite a co-parent who accepts, reads but cannot change, is named
 * in the child's history, is revoked), and the security matrix by role: for every route that can
 * act on another person's record, the owner, the guardian, caregivers with view and manage, a
 * revoked and an expired caregiver, and a stranger. Time does not pass in a system test: the
 * expired caregiver's grant is ended in the database (the clock-driven rules are identity's
 * integration test).
 */

describe('family and caregivers (one-process product on PostgreSQL)', () => {
  const db = new ScratchDatabase('family_e2e');
  let dataDir: string;
  let running: Running | undefined;
  let base: string;
  let mailbox: Mailbox;

  const sql = (query: string, params: unknown[] = []) => db.sql(query, params);

  beforeAll(async () => {
    await db.create();
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-family-'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const googleWallet = JSON.stringify({ client_email: 'wallet@medfolio-test.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    running = startNode('apps/medfolio/src/main.js', [], {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      DOCUMENT_QUOTA_FREE: '50',
      // Every plan may add family members here (the Family plan's requirement is identity's integration test).
      FAMILY_PLANS: 'free,basic,standard,plus,pro',
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT: googleWallet,
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

  const withLogs = (journey: Promise<unknown>) =>
    journey.catch((error: Error) => {
      throw new Error(`${error.message}\n--- product log (tail) ---\n${running!.output().slice(-3000)}`);
    });

  it('runs a household: add a child, upload for them, invite a co-parent, who reads but cannot change, is named in the history, and is refused once revoked', async () => {
    await withLogs(familyJourney(base, mailbox));
  }, 180_000);

  it('gives every role the access it should on every route that acts on a record: owner, guardian, view, manage, revoked, expired, stranger', async () => {
    const document = (await get<OpenApiDocument>(`${base}/api/docs-json`)).body;
    const [guardian, viewer, manager, revoked, expired, stranger] = await Promise.all(['Gail', 'Vic', 'Mona', 'Rex', 'Exa', 'Stan'].map((n) => signUp(base, mailbox, n)));
    const child = await as(base, guardian!)<FamilyRecord>('POST', '/api/family/members/', { first_name: 'Kit', last_name: 'Example', date_of_birth: '2016-01-01' });
    expect(child.status).toBe(201);
    const kit = child.body.patient_id;
    await grant(base, mailbox, guardian!, kit, viewer!, 'view');
    await grant(base, mailbox, guardian!, kit, manager!, 'manage');
    const revokedGrant = await grant(base, mailbox, guardian!, kit, revoked!, 'manage');
    const expiredGrant = await grant(base, mailbox, guardian!, kit, expired!, 'manage');
    expect((await as(base, guardian!)('DELETE', `/api/family/members/${revokedGrant}/`)).status).toBe(200);
    const ended = await sql(`UPDATE identity.family_grants SET expires_at = now() - interval '1 second' WHERE id = $1 RETURNING id`, [expiredGrant]);
    expect(ended).toHaveLength(1);

    const result = await roleMatrix(base, document, [
      { name: 'owner (own record named)', who: guardian!, patient: guardian!.id, may: 'all' },
      { name: 'guardian', who: guardian!, patient: kit, may: 'all' },
      { name: 'caregiver (view)', who: viewer!, patient: kit, may: 'read' },
      { name: 'caregiver (manage)', who: manager!, patient: kit, may: 'all' },
      { name: 'revoked caregiver', who: revoked!, patient: kit, may: 'none' },
      { name: 'expired caregiver', who: expired!, patient: kit, may: 'none' },
      { name: 'stranger', who: stranger!, patient: kit, may: 'none' },
    ]);
    if (result.problems.length) console.log(`${result.lines.join('\n')}\n--- product log (tail) ---\n${running!.output().slice(-3000)}`);
    expect(result.problems).toEqual([]);
    expect(result.lines.length).toBeGreaterThanOrEqual(25);

    // The second round's routes are the caller's own only: every role naming Kit's record is refused.
    const ownOnly = await ownOnlyMatrix(
      base,
      [
        { method: 'PATCH', path: '/api/documents/{documentId}/', body: { private: true } },
        { method: 'GET', path: '/api/family/assent/' },
        { method: 'POST', path: '/api/family/assent/', body: { keep_access: false } },
        { method: 'POST', path: '/api/family/members/{memberId}/claim-invite/', body: { email: 'kit@example.com' } },
      ],
      [
        { name: 'owner (own record named)', who: guardian!, patient: guardian!.id, may: 'all' },
        { name: 'guardian', who: guardian!, patient: kit, may: 'all' },
        { name: 'caregiver (view)', who: viewer!, patient: kit, may: 'read' },
        { name: 'caregiver (manage)', who: manager!, patient: kit, may: 'all' },
        { name: 'revoked caregiver', who: revoked!, patient: kit, may: 'none' },
        { name: 'stranger', who: stranger!, patient: kit, may: 'none' },
      ],
    );
    if (ownOnly.problems.length) console.log(ownOnly.lines.join('\n'));
    expect(ownOnly.problems).toEqual([]);
  }, 300_000);

  it('lets a teen claim their record, keep or end their guardians\' access, and hide a document from them', async () => {
    await withLogs(teenJourney(base, mailbox));
  }, 240_000);
});
