import { randomUUID } from 'node:crypto';
import { ERASURE_SUBJECTS, FAMILY_SERVICE_SUBJECTS, RECORD_ERASED_ACTION, STREAMS, type UploadReply } from '@medfolio/contracts';
import { documentFiles as files } from '@medfolio/testing';
import { caller, DocumentsHarness, newUserId } from './testing/documents-harness';
import { DocumentsService } from './services/documents.service';

/**
 * Erasing a record (identity.user.record-erased.v1) on real PostgreSQL, S3 (versitygw) and NATS
 * JetStream: the patient's documents, stored files and thumbnails, provider grants and household
 * row go; another patient's stay; a second delivery changes nothing and fails nothing.
 */
const h = new DocumentsHarness({ storage: 's3', bus: 'jetstream' });

beforeAll(async () => {
  await h.start();
  await h.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects] });
}, 60_000);
afterAll(() => h.stop());

async function upload(owner: string, name: string): Promise<string> {
  const answer = await h.upload(owner, [{ name, data: files.pdf(name) }]);
  if (answer.status !== 201) throw new Error(`upload: ${answer.status}`);
  return (answer.body as UploadReply).documents[0]!.id;
}

async function grant(patientId: string): Promise<void> {
  await h.sql(
    `INSERT INTO documents.provider_grants (patient_id, provider_id, provider, source, link_id, expires_at) VALUES ($1, $2, '{}'::jsonb, 'share-link', 'link-1', now() + interval '1 day')`,
    [patientId, newUserId()],
  );
}

const rowsOf = async (patientId: string) => ({
  documents: Number((await h.sql(`SELECT count(*) AS n FROM documents.documents WHERE owner_id = $1`, [patientId]))[0]!['n']),
  grants: Number((await h.sql(`SELECT count(*) AS n FROM documents.provider_grants WHERE patient_id = $1`, [patientId]))[0]!['n']),
  household: Number((await h.sql(`SELECT count(*) AS n FROM documents.household_members WHERE patient_id = $1`, [patientId]))[0]!['n']),
});
const blobsOf = async (patientId: string) => (await h.storedObjects()).filter((key) => key.includes(patientId));

describe('identity.user.record-erased.v1', () => {
  it("deletes the patient's documents, files, provider grants and household row, and nothing of another patient's; a second delivery is harmless", async () => {
    const [holder, otherHolder, child, other] = [newUserId(), newUserId(), newUserId(), newUserId()];
    await h.bus.publish(FAMILY_SERVICE_SUBJECTS.householdChanged, { patient_id: child, holder_id: holder, first_name: 'Leo' }, { msgId: randomUUID() });
    await h.bus.publish(FAMILY_SERVICE_SUBJECTS.householdChanged, { patient_id: other, holder_id: otherHolder, first_name: 'Mia' }, { msgId: randomUUID() });
    await h.eventually('the household projection', async () => ((await rowsOf(child)).household === 1 && (await rowsOf(other)).household === 1 ? true : undefined));
    await upload(child, 'leo-1.pdf');
    await upload(child, 'leo-2.pdf');
    const kept = await upload(other, 'mia.pdf');
    await grant(child);
    await grant(other);
    expect(await rowsOf(child)).toEqual({ documents: 2, grants: 1, household: 1 });
    expect((await blobsOf(child)).length).toBeGreaterThanOrEqual(2);
    const otherBlobs = await blobsOf(other);

    const erased = { patient_id: child, erased_at: new Date().toISOString(), erased_by: holder };
    await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
    await h.eventually('the erasure', async () => ((await rowsOf(child)).documents === 0 ? true : undefined));
    expect(await rowsOf(child)).toEqual({ documents: 0, grants: 0, household: 0 });
    expect(await blobsOf(child)).toEqual([]);
    expect(await h.get(DocumentsService).list(caller(child))).toEqual([]);
    const audit = await h.eventually('the audit record', async () => h.audit.find((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child));
    expect(audit).toMatchObject({ actor: holder, entityType: 'record', outcome: 'success', policy: 'proxy:guardian' });

    // The other patient's record is untouched.
    expect(await rowsOf(other)).toEqual({ documents: 1, grants: 1, household: 1 });
    expect(await blobsOf(other)).toEqual(otherBlobs);
    expect((await h.get(DocumentsService).list(caller(other))).map((d) => d.id)).toEqual([kept]);

    // The same erasure delivered again (as a new message, so `once` does not skip it): nothing fails, nothing else goes.
    await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
    await h.eventually('the second audit record', async () => (h.audit.filter((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child).length === 2 ? true : undefined));
    expect(await rowsOf(other)).toEqual({ documents: 1, grants: 1, household: 1 });
    expect(await blobsOf(other)).toEqual(otherBlobs);
    expect(await rowsOf(child)).toEqual({ documents: 0, grants: 0, household: 0 });
  });
});
