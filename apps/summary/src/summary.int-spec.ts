import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { CallerIdentity, SummaryItem } from '@medfolio/contracts';
import { SummaryService } from './services/summary.service';
import { SummaryHarness } from './testing/summary-harness';

/**
 * The summary service on real PostgreSQL and NATS JetStream: documents' events → the bytes read
 * over HTTP → text and facts in rows → a debounced, versioned summary and its event; deletion;
 * a restart between reading and building; the patient's changes surviving a rebuild.
 */
const h = new SummaryHarness();

beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop());

async function pdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 770 - i * 18, size: 12, font }));
  return Buffer.from(await doc.save());
}

const MEDS = ['Clinic visit note', 'Medications:', '- Metformin 500 mg by mouth twice daily', 'Allergies: NKDA'];

async function uploadPdf(ownerId: string, filename: string, lines: string[]): Promise<string> {
  const id = randomUUID();
  h.documents.set(id, { ownerId, filename, contentType: 'application/pdf', data: await pdf(lines) });
  await h.uploaded(id, ownerId);
  return id;
}

const owner = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

async function summaryOf(userId: string): Promise<SummaryItem> {
  const [item] = await h.get(SummaryService).get(owner(userId), { user: userId });
  return item!;
}

function until(userId: string, check: (item: SummaryItem) => boolean): Promise<SummaryItem> {
  return h.eventually(`the summary of ${userId}`, async () => {
    const item = await summaryOf(userId);
    return item.status !== 'processing' && check(item) ? item : undefined;
  });
}

const medicationTexts = (item: SummaryItem) => item.sections.find((s) => s.key === 'medications')!.facts.map((f) => f.text);

it('reads an uploaded document into text and facts, builds a version citing it, and drops it again on deletion', async () => {
  const userId = randomUUID();
  const documentId = await uploadPdf(userId, 'clinic-note.pdf', MEDS);

  const built = await until(userId, (item) => item.version >= 1);
  expect(built.version).toBe(1);
  const metformin = built.sections.find((s) => s.key === 'medications')!.facts[0]!;
  expect(metformin.text).toMatch(/^Metformin 500 mg/);
  expect(metformin.sources).toEqual([expect.objectContaining({ document_id: documentId, filename: 'clinic-note.pdf', page: 1 })]);
  expect(built.sections.find((s) => s.key === 'allergies')!.state).toBe('none_known');
  expect(built.documents).toEqual([{ document_id: documentId, filename: 'clinic-note.pdf', state: 'read', problems: [] }]);
  // The text is kept per page in the service's own schema.
  const pages = await h.sql<{ page: number; text: string }>(`SELECT page, text FROM summary.pages WHERE document_id = $1`, [documentId]);
  expect(pages).toHaveLength(1);
  expect(pages[0]!.page).toBe(1);
  expect(pages[0]!.text).toContain('Metformin 500 mg');
  await h.eventually('the built event', async () => (h.built.some((e) => e.user_id === userId && e.version === 1) ? true : undefined));

  await h.deleted(documentId, userId);
  const after = await until(userId, (item) => item.version >= 2);
  expect(after.status).toBe('empty');
  expect(medicationTexts(after)).toEqual([]);
  expect(after.documents).toEqual([]);
  expect(await h.sql(`SELECT 1 FROM summary.pages WHERE document_id = $1`, [documentId])).toEqual([]);
  expect(h.audit.filter((r) => r.patientId === userId).map((r) => r.action)).toContain('summary.read');
});

it('answers the status the dashboard polls: no content, no audit, the same status as the summary, owner only', async () => {
  const userId = randomUUID();
  const service = h.get(SummaryService);
  expect(await service.status(owner(userId))).toEqual({ status: 'empty', version: 0, confirmed_version: null, documents: [] });
  const documentId = await uploadPdf(userId, 'clinic-note.pdf', MEDS);
  // The document's event arrives a moment after the upload: until then the status does not list it
  // (the dashboard keeps asking while its own list has a document the status lacks).
  await h.eventually('the document in the status', async () =>
    (await service.status(owner(userId))).documents.some((d) => d.document_id === documentId) ? true : undefined,
  );
  const ready = await h.eventually('the status once built', async () => {
    const status = await service.status(owner(userId));
    return status.status === 'ready' && status.version >= 1 ? status : undefined;
  });
  expect(ready).toEqual({ status: 'ready', version: 1, confirmed_version: null, documents: [{ document_id: documentId, state: 'read' }] });
  expect(JSON.stringify(ready)).not.toContain('Metformin');
  const item = await summaryOf(userId);
  expect({ status: item.status, version: item.version }).toEqual({ status: ready.status, version: ready.version });
  const reads = h.audit.filter((r) => r.patientId === userId).length;
  await service.status(owner(userId));
  expect(h.audit.filter((r) => r.patientId === userId)).toHaveLength(reads);
  await expect(service.status({ roles: [], correlationId: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it('marks a document that cannot be read with the reason, and the others still count', async () => {
  const userId = randomUUID();
  const bad = randomUUID();
  h.documents.set(bad, { ownerId: userId, filename: 'notes.txt', contentType: 'application/octet-stream', data: Buffer.from('\u0000\u0001binary') });
  await h.uploaded(bad, userId);
  await uploadPdf(userId, 'meds.pdf', MEDS);
  const item = await until(userId, (i) => i.version >= 1 && i.documents.length === 2 && i.documents.every((d) => d.state !== 'pending' && d.state !== 'processing'));
  expect(item.documents.find((d) => d.document_id === bad)).toMatchObject({ state: 'unreadable', problems: ['This kind of file cannot be read.'] });
  expect(medicationTexts(item)[0]).toMatch(/^Metformin/);
});

it('resumes after a restart between reading and building: built once, read once', async () => {
  // A long debounce: the service stops with the document read and the rebuild still due.
  await h.restart({ SUMMARY_REBUILD_DELAY_MS: '60000' });
  const userId = randomUUID();
  const documentId = await uploadPdf(userId, 'visit.pdf', MEDS);
  await h.eventually('the document read', async () => {
    const [row] = await h.sql<{ state: string }>(`SELECT state FROM summary.documents WHERE document_id = $1`, [documentId]);
    return row?.state === 'read' ? true : undefined;
  });
  expect((await summaryOf(userId)).status).toBe('processing');
  await h.restart({ SUMMARY_REBUILD_DELAY_MS: '200' });
  // The due time was written 60 s ahead: a restart does not shorten it, so move it to now as time would.
  await h.sql(`UPDATE summary.patients SET rebuild_due_at = now() WHERE user_id = $1`, [userId]);
  const item = await until(userId, (i) => i.version >= 1);
  expect(item.version).toBe(1);
  expect(h.reads.get(documentId)).toBe(1);
  // The redelivered-or-not upload event changes nothing: the row is there, the dedup row too.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await summaryOf(userId)).version).toBe(1);
  expect(h.reads.get(documentId)).toBe(1);
});

it("keeps the patient's changes through rebuilds and numbers every change as a version", async () => {
  const userId = randomUUID();
  await uploadPdf(userId, 'first.pdf', MEDS);
  const first = await until(userId, (i) => i.version >= 1);
  const factId = first.sections.find((s) => s.key === 'medications')!.facts[0]!.id;
  const service = h.get(SummaryService);
  const hidden = await service.hide(owner(userId), { fact_id: factId, hidden: true });
  expect(hidden.version).toBe(2);
  const added = await service.add(owner(userId), { section: 'allergies', text: 'Latex (rash)' });
  expect(added.version).toBe(3);
  expect((await service.confirm(owner(userId), { version: 3 })).confirmed_version).toBe(3);

  // A second document naming the same drug: the rebuild finds the same fact and keeps it hidden.
  await uploadPdf(userId, 'second.pdf', ['Medication list', 'Medications:', '- Metformin 500 mg PO BID']);
  const rebuilt = await until(userId, (i) => i.version >= 4);
  const metformin = rebuilt.sections.find((s) => s.key === 'medications')!.facts.find((f) => f.id === factId)!;
  expect(metformin).toMatchObject({ hidden: true });
  expect(metformin.sources.map((s) => s.filename).sort()).toEqual(['first.pdf', 'second.pdf']);
  expect(rebuilt.summary).not.toContain('Metformin');
  expect(rebuilt.sections.find((s) => s.key === 'allergies')!.facts).toEqual([expect.objectContaining({ text: 'Latex (rash)', added_by_patient: true })]);
  expect(rebuilt.confirmed_version).toBe(3);
  await expect(service.confirm(owner(userId), { version: 3 })).rejects.toMatchObject({ code: 'CONFLICT' });
  const versions = await h.sql<{ version: number }>(`SELECT version FROM summary.versions WHERE user_id = $1 ORDER BY version`, [userId]);
  expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
});

it('audits a fact change that could not be stored as a failure, not a success (a NUL in the text answered 500 with a "success" record)', async () => {
  const userId = randomUUID();
  const service = h.get(SummaryService);
  // Only the gateway refuses NUL (400): here it reaches PostgreSQL, which cannot store it.
  await expect(service.add(owner(userId), { section: 'allergies', text: 'Latex\u0000 (rash)' })).rejects.toBeDefined();
  const records = await h.eventually('the fact-add audit record', async () => {
    const mine = h.audit.filter((r) => r.patientId === userId && r.action === 'summary.fact-add');
    return mine.length > 0 ? mine : undefined;
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // no second record follows
  expect(h.audit.filter((r) => r.patientId === userId && r.action === 'summary.fact-add').map((r) => r.outcome)).toEqual(['failure']);
  expect(records[0]).toMatchObject({ outcome: 'failure' });
  expect(await h.sql(`SELECT 1 FROM summary.fact_overrides WHERE user_id = $1`, [userId])).toEqual([]);
  // A change that is stored is still audited as a success.
  await service.add(owner(userId), { section: 'allergies', text: 'Latex (rash)' });
  await h.eventually('the success record', async () => (h.audit.some((r) => r.patientId === userId && r.action === 'summary.fact-add' && r.outcome === 'success') ? true : undefined));
});

it("reads a portal C-CDA's coded entries once: its narrative is kept but marked as covered, so no fact is listed twice", async () => {
  const userId = randomUUID();
  const id = randomUUID();
  const ccda = await readFile(path.join(__dirname, '../../../libs/clinical/quality/corpus/portal-ccd/continuity-of-care.xml'));
  h.documents.set(id, { ownerId: userId, filename: 'continuity-of-care.xml', contentType: 'application/xml', data: ccda });
  await h.uploaded(id, userId);

  const built = await until(userId, (item) => item.version >= 1);
  const additional = built.sections.find((s) => s.key === 'additional')!.facts.map((f) => f.text);
  expect(additional.filter((text) => /influenza/i.test(text))).toHaveLength(1);
  expect(additional.filter((text) => /a1c/i.test(text))).toHaveLength(1);
  // The flag is stored with the page, so a rebuild from the rows reads the same.
  const covered = await h.sql<{ covered: boolean }>(`SELECT covered_by_facts AS covered FROM summary.pages WHERE document_id = $1`, [id]);
  expect(covered.some((row) => row.covered)).toBe(true);
});
