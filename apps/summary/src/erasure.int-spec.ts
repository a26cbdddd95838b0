import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ERASURE_SUBJECTS, RECORD_ERASED_ACTION, SHARING_MESSAGES, STREAMS, type CallerIdentity } from '@medfolio/contracts';
import { refusal } from '@medfolio/testing';
import { SharingService } from './services/sharing.service';
import { SummaryService } from './services/summary.service';
import { SummaryHarness } from './testing/summary-harness';

/**
 * Erasing a record (identity.user.record-erased.v1) on real PostgreSQL and NATS JetStream: the
 * patient's documents and pages, versions, overrides, observations and share links go (a link
 * answers "not valid" from then on); another patient's stay; a second delivery is harmless.
 */
const h = new SummaryHarness();

beforeAll(async () => {
  await h.start();
  await h.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects] });
}, 60_000);
afterAll(() => h.stop());

const person = (userId?: string): CallerIdentity => ({ ...(userId ? { userId } : {}), roles: ['patient'], correlationId: randomUUID() });

async function pdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 770 - i * 18, size: 12, font }));
  return Buffer.from(await doc.save());
}

/** A patient with a built summary from one document, an added fact (an override), a confirmed version and a share link. */
async function patientWithRecord(): Promise<{ id: string; shareId: string }> {
  const id = randomUUID();
  const documentId = randomUUID();
  h.documents.set(documentId, { ownerId: id, filename: 'note.pdf', contentType: 'application/pdf', data: await pdf(['Clinic visit note', 'Medications:', '- Metformin 500 mg by mouth twice daily']) });
  await h.uploaded(documentId, id);
  await h.eventually('the built summary', async () => {
    const [item] = await h.get(SummaryService).get(person(id), { user: id });
    return item && item.status !== 'processing' && item.documents.length === 1 ? item : undefined;
  });
  const added = await h.get(SummaryService).add(person(id), { section: 'allergies', text: 'Penicillin (hives)' });
  await h.get(SummaryService).confirm(person(id), { version: added.version });
  const link = await h.get(SharingService).ensure(person(id), { purpose: 'default' });
  // The privacy mark of the document (documents' event's projection).
  await h.sql(`INSERT INTO summary.private_documents (document_id, user_id, private) VALUES ($1, $2, true)`, [documentId, id]);
  return { id, shareId: link.share_id };
}

const TABLES = [
  ['documents', 'user_id'],
  ['versions', 'user_id'],
  ['fact_overrides', 'user_id'],
  ['patients', 'user_id'],
  ['share_links', 'owner_id'],
  ['observations', 'user_id'],
  ['private_documents', 'user_id'],
] as const;

async function rowsOf(patientId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, column] of TABLES) counts[table] = Number((await h.sql(`SELECT count(*) AS n FROM summary.${table} WHERE ${column} = $1`, [patientId]))[0]!['n']);
  return counts;
}

it("deletes the patient's summary rows and share links, and nothing of another patient's; a second delivery is harmless", async () => {
  const [child, other] = [await patientWithRecord(), await patientWithRecord()];
  const before = await rowsOf(child.id);
  expect(before).toMatchObject({ documents: 1, patients: 1, share_links: 1, private_documents: 1 });
  expect(before['versions']).toBeGreaterThan(0);
  expect(before['fact_overrides']).toBeGreaterThan(0);
  const otherBefore = await rowsOf(other.id);
  expect((await h.get(SummaryService).get(person(), { user: child.shareId }))[0]!.sections.length).toBeGreaterThan(0);

  const erased = { patient_id: child.id, erased_at: new Date().toISOString(), erased_by: randomUUID() };
  await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await h.eventually('the erasure', async () => ((await rowsOf(child.id))['patients'] === 0 ? true : undefined));
  expect(await rowsOf(child.id)).toEqual({ documents: 0, versions: 0, fact_overrides: 0, patients: 0, share_links: 0, observations: 0, private_documents: 0 });
  expect(Number((await h.sql(`SELECT count(*) AS n FROM summary.pages p WHERE NOT EXISTS (SELECT 1 FROM summary.documents d WHERE d.document_id = p.document_id)`))[0]!['n'])).toBe(0);
  expect(await refusal(h.get(SummaryService).get(person(), { user: child.shareId }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
  const audit = await h.eventually('the audit record', async () => h.audit.find((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.id));
  expect(audit).toMatchObject({ service: 'summary', actor: erased.erased_by, outcome: 'success', policy: 'proxy:guardian' });

  // Another patient's record is untouched, and still shared.
  expect(await rowsOf(other.id)).toEqual(otherBefore);
  expect((await h.get(SummaryService).get(person(), { user: other.shareId }))[0]!.sections.length).toBeGreaterThan(0);

  // The same erasure again, as a new message: nothing fails, nothing more goes.
  await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await h.eventually('the second audit record', async () => (h.audit.filter((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.id).length === 2 ? true : undefined));
  expect(await rowsOf(other.id)).toEqual(otherBefore);
});
