import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  BILLING_SUBJECTS,
  FAMILY_SERVICE_SUBJECTS,
  STREAMS,
  type DocumentListItem,
  type DomainError,
  type UploadReply,
} from '@medfolio/contracts';
import { AppMetrics } from '@medfolio/observability';
import { DOCUMENT_MESSAGES, DocumentsService } from './services/documents.service';
import { PurgeService } from './services/purge.service';
import { caller, DocumentsHarness, newUserId } from './testing/documents-harness';
import { documentFiles as files } from '@medfolio/testing';

/**
 * The owner's documents after upload, on real PostgreSQL, S3 (versitygw) and NATS JetStream:
 * list, download links (with the SHA-256 check), deletion and the purge that follows, the 404
 * matrix between two users, plan quotas fed by billing's events, audit records, the janitor.
 */
const h = new DocumentsHarness({ storage: 's3', bus: 'jetstream' });
let service: DocumentsService;

beforeAll(async () => {
  await h.start();
  service = h.get(DocumentsService);
}, 60_000);
afterAll(() => h.stop());

async function uploaded(owner: string, names: string[]): Promise<DocumentListItem[]> {
  const answer = await h.upload(
    owner,
    await Promise.all(
      names.map(async (name) => ({ name, data: name.endsWith('.png') ? await files.png() : files.pdf(name) })),
    ),
  );
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as UploadReply).documents;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: DomainError) => e.code,
  );

/** Publishes billing.entitlement.changed.v1 as billing will (billing does not exist yet). */
async function entitlementChanged(userId: string, plan: string, changedAt = new Date()): Promise<void> {
  await h.bus.ensureStream({ ...STREAMS.BILLING, subjects: [...STREAMS.BILLING.subjects] });
  await h.bus.publish(
    BILLING_SUBJECTS.entitlementChanged,
    { user_id: userId, plan, changed_at: changedAt.toISOString() },
    { msgId: randomUUID() },
  );
}

describe('list, download link, delete', () => {
  it("lists only the owner's documents, newest first, with the fields the dashboard reads", async () => {
    const owner = newUserId();
    const [first] = await uploaded(owner, ['first.pdf']);
    await uploaded(owner, ['second.pdf']);
    await uploaded(newUserId(), ['someone-else.pdf']);

    const list = await service.list(caller(owner));

    expect(list.map((d) => d.filename)).toEqual(['second.pdf', 'first.pdf']);
    expect(list[1]).toEqual({
      id: first!.id,
      filename: 'first.pdf',
      url: null,
      uploaded_at: first!.uploaded_at,
      size: files.pdf('first.pdf').length,
      content_type: 'application/pdf',
      private: false,
    });
  });

  it('gives a 5-minute attachment link after checking the SHA-256 again', async () => {
    const owner = newUserId();
    const [document] = await uploaded(owner, ['results.pdf']);

    const link = await service.downloadLink(caller(owner), { document_id: document!.id });

    expect(link.filename).toBe('results.pdf');
    expect(new Date(link.expires_at).getTime() - Date.now()).toBeGreaterThan(290_000);
    const url = new URL(link.download_url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename=results.pdf');
    const response = await fetch(link.download_url);
    expect(Buffer.from(await response.arrayBuffer()).equals(files.pdf('results.pdf'))).toBe(true);
  });

  it('serves nothing and raises the alert when the stored bytes no longer match (log, metric, audit)', async () => {
    const owner = newUserId();
    const [document] = await uploaded(owner, ['tampered.pdf']);
    const s3 = new S3Client({
      endpoint: h.s3!.endpoint,
      region: h.s3!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: h.s3!.accessKeyId, secretAccessKey: h.s3!.secretAccessKey },
    });
    await s3.send(
      new PutObjectCommand({
        Bucket: h.s3!.bucket,
        Key: `documents/${owner}/${document!.id}`,
        Body: files.pdf('changed behind our back'),
      }),
    );
    s3.destroy();

    await expect(service.downloadLink(caller(owner), { document_id: document!.id })).rejects.toMatchObject({
      code: 'INTERNAL',
      message: DOCUMENT_MESSAGES.integrity,
    });

    const metrics = await h.get(AppMetrics).registry.getSingleMetricAsString('documents_integrity_failures_total');
    expect(metrics).toMatch(/documents_integrity_failures_total\{reason="changed"(,app="documents")?\} 1/);
    await h.eventually('the audit record', async () =>
      h.audit.some(
        (r) => r.action === 'document.integrity-check' && r.outcome === 'failure' && r.entityId === document!.id,
      )
        ? true
        : undefined,
    );
    expect(
      h.audit.some(
        (r) => r.action === 'document.download-link' && r.entityId === document!.id && r.outcome === 'success',
      ),
    ).toBe(false);
  });

  it('deletes at once for the owner, then the purge removes the blobs and the row', async () => {
    const owner = newUserId();
    const [document] = await uploaded(owner, ['x-ray.png']);
    await h.eventually('the thumbnail', async () => ((await service.list(caller(owner)))[0]?.url ? true : undefined));
    const keys = [`documents/${owner}/${document!.id}`, `document-thumbnails/${owner}/${document!.id}.webp`];
    expect(await h.storedObjects()).toEqual(expect.arrayContaining(keys));

    await expect(service.delete(caller(owner), { document_id: document!.id })).resolves.toEqual({
      message: 'Document deleted.',
    });

    expect(await service.list(caller(owner))).toEqual([]);
    await expect(codeOf(service.downloadLink(caller(owner), { document_id: document!.id }))).resolves.toBe('NOT_FOUND');
    await expect(codeOf(service.delete(caller(owner), { document_id: document!.id }))).resolves.toBe('NOT_FOUND');
    await h.eventually('the purge', async () =>
      (await h.sql(`SELECT id FROM documents.documents WHERE id = $1`, [document!.id])).length === 0 ? true : undefined,
    );
    const left = await h.storedObjects();
    for (const key of keys) expect(left).not.toContain(key);
    const [event] = await h.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM documents.outbox WHERE subject = 'documents.document.deleted.v1' AND payload->>'document_id' = $1`,
      [document!.id],
    );
    expect(event!.payload).toMatchObject({ document_id: document!.id, owner_id: owner, storage_key: keys[0] });
  });

  it('records every access in the audit log, identifiers only', async () => {
    const owner = newUserId();
    const [document] = await uploaded(owner, ['audited.pdf']);
    await service.list(caller(owner));
    await service.downloadLink(caller(owner), { document_id: document!.id });
    await service.delete(caller(owner), { document_id: document!.id });

    const mine = await h.eventually('the records', async () => {
      const records = h.audit.filter((r) => r.patientId === owner);
      return records.length >= 4 ? records : undefined;
    });
    expect(mine.map((r) => [r.action, r.outcome, r.entityId ?? null])).toEqual([
      ['document.upload', 'success', document!.id],
      ['document.list', 'success', null],
      ['document.download-link', 'success', document!.id],
      ['document.delete', 'success', document!.id],
    ]);
    expect(mine.every((r) => r.service === 'documents' && r.actor === owner && r.policy === 'owner')).toBe(true);
    expect(JSON.stringify(mine)).not.toContain('audited');
  });
});

describe('GET /internal/documents/{id}/content (other services read the bytes)', () => {
  it('streams the decrypted bytes with the filename to an internal caller naming the owner, audited; nothing otherwise', async () => {
    const owner = newUserId();
    const [document] = await uploaded(owner, ['Visit note.pdf']);
    const url = (ownerId: string) => `${h.url}/internal/documents/${document!.id}/content?owner=${ownerId}`;
    const system = h.internalHeaders('system');
    const read = await fetch(url(owner), { headers: system });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-document-filename')).toBe(encodeURIComponent('Visit note.pdf'));
    expect(Buffer.from(await read.arrayBuffer())).toEqual(files.pdf('Visit note.pdf'));
    await h.eventually('the read in the audit log', async () =>
      h.audit.find((r) => r.action === 'document.content-read' && r.entityId === document!.id && r.outcome === 'success') ? true : undefined,
    );
    expect((await fetch(url(newUserId()), { headers: system })).status).toBe(404);
    expect((await fetch(url(owner))).status).toBe(403);
    expect((await fetch(`${h.url}/internal/documents/not-a-uuid/content?owner=${owner}`, { headers: system })).status).toBe(404);
  });
});

describe('where a document was fetched from (X-Document-Source, internal callers only)', () => {
  it('keeps the source an internal caller gives with the upload and hands it with the content; an upload without one has none; a bad one is refused with nothing kept', async () => {
    const owner = newUserId();
    const source = 'Springfield General Hospital via MyChart';
    const fetched = await h.upload(owner, [{ name: 'record.pdf', data: files.pdf('record.pdf') }], { 'x-document-source': encodeURIComponent(source) });
    expect(fetched.status).toBe(201);
    const [document] = (fetched.body as UploadReply).documents;
    expect(await h.sql(`SELECT source FROM documents.documents WHERE id = $1`, [document!.id])).toEqual([{ source }]);
    const system = h.internalHeaders('system');
    const read = await fetch(`${h.url}/internal/documents/${document!.id}/content?owner=${owner}`, { headers: system });
    expect(read.status).toBe(200);
    expect(decodeURIComponent(read.headers.get('x-document-source') ?? '')).toBe(source);
    await read.arrayBuffer();

    const [own] = await uploaded(owner, ['mine.pdf']);
    const plain = await fetch(`${h.url}/internal/documents/${own!.id}/content?owner=${owner}`, { headers: system });
    expect(plain.headers.get('x-document-source')).toBeNull();
    await plain.arrayBuffer();

    const before = (await service.list({ userId: owner, roles: ['patient'], correlationId: randomUUID() })).length;
    for (const bad of ['%E0%A4%A', encodeURIComponent('x'.repeat(201)), encodeURIComponent('line\nbreak')]) {
      const refused = await h.upload(owner, [{ name: 'other.pdf', data: files.pdf('other.pdf') }], { 'x-document-source': bad });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ message: expect.stringMatching(/X-Document-Source/) });
    }
    expect(await service.list({ userId: owner, roles: ['patient'], correlationId: randomUUID() })).toHaveLength(before);
  });
});

describe("another user's document: 404 on every route", () => {
  it('answers NOT_FOUND exactly as for a document that does not exist, and changes nothing', async () => {
    const alice = newUserId();
    const bob = newUserId();
    const [aliceDocument] = await uploaded(alice, ['alice.pdf']);
    const [bobDocument] = await uploaded(bob, ['bob.pdf']);
    const missing = randomUUID();

    const matrix: Record<string, string> = {};
    for (const [who, user] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      for (const [whose, id] of [
        ['alice', aliceDocument!.id],
        ['bob', bobDocument!.id],
        ['nobody', missing],
      ] as const) {
        matrix[`${who} link ${whose}`] = await codeOf(service.downloadLink(caller(user), { document_id: id }));
      }
      matrix[`${who} list`] = (await service.list(caller(user))).map((d) => d.filename).join(',');
    }
    for (const [who, user, other] of [
      ['alice', alice, bobDocument!.id],
      ['bob', bob, aliceDocument!.id],
    ] as const) {
      matrix[`${who} delete other's`] = await codeOf(service.delete(caller(user), { document_id: other }));
      matrix[`${who} delete missing`] = await codeOf(service.delete(caller(user), { document_id: missing }));
    }

    expect(matrix).toEqual({
      'alice link alice': 'ok',
      'alice link bob': 'NOT_FOUND',
      'alice link nobody': 'NOT_FOUND',
      'alice list': 'alice.pdf',
      'bob link alice': 'NOT_FOUND',
      'bob link bob': 'ok',
      'bob link nobody': 'NOT_FOUND',
      'bob list': 'bob.pdf',
      "alice delete other's": 'NOT_FOUND',
      'alice delete missing': 'NOT_FOUND',
      "bob delete other's": 'NOT_FOUND',
      'bob delete missing': 'NOT_FOUND',
    });
    expect((await service.list(caller(alice))).map((d) => d.id)).toEqual([aliceDocument!.id]);
    expect((await service.list(caller(bob))).map((d) => d.id)).toEqual([bobDocument!.id]);
    // Bob's attempts show in Alice's access history as denied.
    await h.eventually('the denied records', async () =>
      h.audit.filter((r) => r.patientId === alice && r.actor === bob && r.outcome === 'denied').length === 2
        ? true
        : undefined,
    );
  });
});

describe("a family member's record under the household holder's plan (identity.user.household-changed.v1)", () => {
  it("counts a dependant's documents with the holder's, under the holder's plan, and says whose record is full", async () => {
    const [holder, child] = [newUserId(), newUserId()];
    await h.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects] });
    await h.bus.publish(FAMILY_SERVICE_SUBJECTS.householdChanged, { patient_id: child, holder_id: holder, first_name: 'Leo' }, { msgId: randomUUID() });
    await h.eventually('the household projection', async () =>
      (await h.sql(`SELECT holder_id FROM documents.household_members WHERE patient_id = $1`, [child]))[0]?.['holder_id'] === holder ? true : undefined,
    );
    await uploaded(holder, ['mine.pdf']);
    await uploaded(child, ['leo-1.pdf']);
    const refused = await h.upload(child, [{ name: 'leo-2.pdf', data: files.pdf() }]);
    expect(refused.status).toBe(402);
    expect((refused.body as { message: string }).message).toBe(
      "Leo's record is full: your household's Free plan allows 2 documents and you have 2 documents stored, so this file cannot be added. The Basic plan allows 5 documents: see /membership.",
    );
    await entitlementChanged(holder, 'pro');
    await h.eventually('the Family plan', async () =>
      (await h.sql(`SELECT plan FROM documents.entitlements WHERE owner_id = $1`, [holder]))[0]?.['plan'] === 'pro' ? true : undefined,
    );
    expect((await uploaded(child, ['leo-2.pdf'])).map((d) => d.filename)).toEqual(['leo-2.pdf']);
    expect((await service.list(caller(child))).map((d) => d.filename).sort()).toEqual(['leo-1.pdf', 'leo-2.pdf']);
  });
});

describe('plan quotas from billing.entitlement.changed.v1', () => {
  it('holds a new user to the Free plan (2 documents) and names the plan that allows more', async () => {
    const owner = newUserId();
    await uploaded(owner, ['one.pdf']);

    const answer = await h.upload(owner, [
      { name: 'two.pdf', data: files.pdf() },
      { name: 'three.pdf', data: files.pdf() },
    ]);

    expect(answer).toEqual({
      status: 402,
      body: {
        code: 'QUOTA_EXCEEDED',
        message:
          'Your Free plan allows 2 documents and you have 1 document stored, so these 2 files cannot be added. The Basic plan allows 5 documents: see /membership.',
      },
    });
    expect((await service.list(caller(owner))).map((d) => d.filename)).toEqual(['one.pdf']);
    await h.eventually('the denied record', async () =>
      h.audit.some((r) => r.patientId === owner && r.action === 'document.upload' && r.outcome === 'denied')
        ? true
        : undefined,
    );
  });

  it('follows the plan billing announces: more room on an upgrade, the newest change wins, old events are ignored', async () => {
    const owner = newUserId();
    await uploaded(owner, ['1.pdf', '2.pdf']);
    expect((await h.upload(owner, [{ name: '3.pdf', data: files.pdf() }])).status).toBe(402);

    await entitlementChanged(owner, 'basic');
    await h.eventually('the Basic plan', async () =>
      (await h.sql(`SELECT plan FROM documents.entitlements WHERE owner_id = $1`, [owner]))[0]?.['plan'] === 'basic'
        ? true
        : undefined,
    );
    expect(
      (
        await h.upload(owner, [
          { name: '3.pdf', data: files.pdf() },
          { name: '4.pdf', data: files.pdf() },
          { name: '5.pdf', data: files.pdf() },
        ])
      ).status,
    ).toBe(201);
    expect(await h.upload(owner, [{ name: '6.pdf', data: files.pdf() }])).toMatchObject({
      status: 402,
      body: {
        message:
          'Your Basic plan allows 5 documents and you have 5 documents stored, so this file cannot be added. The Standard plan allows 12 documents: see /membership.',
      },
    });

    // A late event from before the upgrade is processed but changes nothing.
    const processed = async () =>
      (
        await h.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM documents.processed_messages WHERE consumer = 'documents-entitlements'`,
        )
      )[0]!.n;
    const before = await processed();
    await entitlementChanged(owner, 'free', new Date(Date.now() - 3_600_000));
    await h.eventually('the late event processed', async () => ((await processed()) === before + 1 ? true : undefined));
    expect((await h.sql(`SELECT plan FROM documents.entitlements WHERE owner_id = $1`, [owner]))[0]).toEqual({
      plan: 'basic',
    });
    await entitlementChanged(owner, 'pro');
    await h.eventually('the Family plan', async () =>
      (await h.sql(`SELECT plan FROM documents.entitlements WHERE owner_id = $1`, [owner]))[0]?.['plan'] === 'pro'
        ? true
        : undefined,
    );
    expect((await h.upload(owner, [{ name: '6.pdf', data: files.pdf() }])).status).toBe(201);
    expect(await processed()).toBe(before + 2);
  });

  it('lets only one of two racing uploads take the last place', async () => {
    const owner = newUserId();
    await uploaded(owner, ['1.pdf']);
    const answers = await Promise.all([
      h.upload(owner, [{ name: 'a.pdf', data: files.bigPdf(3 * 1024 * 1024) }]),
      h.upload(owner, [{ name: 'b.pdf', data: files.bigPdf(3 * 1024 * 1024) }]),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 402]);
    expect(await service.list(caller(owner))).toHaveLength(2);
    const keys = (await h.storedObjects()).filter((k) => k.startsWith(`documents/${owner}/`));
    expect(keys).toHaveLength(2);
  });
});

describe('the janitor', () => {
  it('removes the blobs of an upload the process died in the middle of, and only those', async () => {
    const owner = newUserId();
    const [kept] = await uploaded(owner, ['kept.pdf']);
    const abandonedKey = `documents/${owner}/${randomUUID()}`;
    const s3 = new S3Client({
      endpoint: h.s3!.endpoint,
      region: h.s3!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: h.s3!.accessKeyId, secretAccessKey: h.s3!.secretAccessKey },
    });
    await s3.send(new PutObjectCommand({ Bucket: h.s3!.bucket, Key: abandonedKey, Body: files.pdf() }));
    s3.destroy();
    await h.sql(
      `INSERT INTO documents.unfinished_uploads (storage_key, started_at) VALUES ($1, now() - interval '7 hours')`,
      [abandonedKey],
    );
    const fresh = `documents/${owner}/${randomUUID()}`;
    await h.sql(`INSERT INTO documents.unfinished_uploads (storage_key) VALUES ($1)`, [fresh]);

    expect(await h.get(PurgeService).sweep()).toBe(1);

    const left = await h.storedObjects();
    expect(left).not.toContain(abandonedKey);
    expect(left).toContain(`documents/${owner}/${kept!.id}`);
    expect(await h.sql(`SELECT storage_key FROM documents.unfinished_uploads`)).toEqual([{ storage_key: fresh }]);
    await h.sql(`DELETE FROM documents.unfinished_uploads`);
  });
});
