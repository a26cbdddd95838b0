import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DOCUMENT_PRIVACY_SUBJECTS, type CallerIdentity, type SummaryItem, type TrendsReply } from '@medfolio/contracts';
import { trendDocuments } from '@medfolio/testing';
import { ShareFormatsService } from './services/share-formats.service';
import { SummaryService } from './services/summary.service';
import { TrendsService } from './services/trends.service';
import { SummaryHarness } from './testing/summary-harness';

/**
 * Private documents (family, issue 30) on real PostgreSQL and NATS JetStream: documents' event
 * marks a document private; a proxy (a caller with `actor`) then reads the summary without the
 * facts whose every source is that document (the text too), without it among the documents, and
 * trends without its points; a fact also read from another document stays; the owner still reads
 * everything; unmarked, the proxy sees it again.
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

async function upload(ownerId: string, filename: string, contentType: string, data: Buffer): Promise<string> {
  const id = randomUUID();
  h.documents.set(id, { ownerId, filename, contentType, data });
  await h.uploaded(id, ownerId);
  return id;
}

const tess = randomUUID();
const gina = randomUUID();
const owner: CallerIdentity = { userId: tess, roles: ['patient'], correlationId: randomUUID() };
const proxy: CallerIdentity = { userId: tess, roles: ['patient'], correlationId: randomUUID(), actor: { userId: gina, role: 'guardian' } };
const read = async (who: CallerIdentity): Promise<SummaryItem> => (await h.get(SummaryService).get(who, { user: tess }))[0]!;
const medicines = (item: SummaryItem) => item.sections.find((s) => s.key === 'medications')!.facts.map((f) => f.text.split(' ')[0]);

async function setPrivate(documentId: string, isPrivate: boolean): Promise<void> {
  await h.bus.publish(DOCUMENT_PRIVACY_SUBJECTS.privacyChanged, { document_id: documentId, owner_id: tess, private: isPrivate }, { msgId: randomUUID() });
}

let note: string;
let visit: string;
let ccda: string;

beforeAll(async () => {
  note = await upload(tess, 'school-note.pdf', 'application/pdf', await pdf(['Clinic visit note', 'Medications:', '- Metformin 500 mg by mouth twice daily']));
  visit = await upload(tess, 'clinic-visit.pdf', 'application/pdf', await pdf(['Clinic visit note', 'Medications:', '- Sertraline 50 mg by mouth daily', '- Metformin 500 mg by mouth twice daily']));
  ccda = await upload(tess, 'ccd.xml', 'application/xml', trendDocuments().ccda);
  await h.planChanged(tess, 'plus');
  await h.eventually('the three documents built', async () => {
    const item = await read(owner);
    return item.status === 'ready' && item.documents.filter((d) => d.state === 'read').length === 3 && medicines(item).includes('Sertraline') ? item : undefined;
  }, 60_000);
}, 90_000);

it("leaves out of a proxy's summary the facts only a private document gives, and the document; the owner reads everything", async () => {
  await setPrivate(visit, true);
  const hidden = await h.eventually('the flag kept', async () => {
    const item = await read(proxy);
    return medicines(item).includes('Sertraline') ? undefined : item;
  });
  expect(medicines(hidden)).toContain('Metformin');
  expect(hidden.summary).not.toContain('Sertraline');
  expect(hidden.documents.map((d) => d.document_id).sort()).toEqual([ccda, note].sort());
  // Metformin is cited by both documents: the proxy sees only the other one as its source.
  const metformin = hidden.sections.find((s) => s.key === 'medications')!.facts.find((f) => f.text.startsWith('Metformin'))!;
  expect(metformin.sources.map((s) => s.document_id)).toEqual([note]);
  expect(JSON.stringify(hidden)).not.toContain(visit);
  const status = await h.get(SummaryService).status(proxy);
  expect(status.documents.map((d) => d.document_id)).not.toContain(visit);

  const own = await read(owner);
  expect(medicines(own)).toEqual(expect.arrayContaining(['Sertraline', 'Metformin']));
  expect(own.summary).toContain('Sertraline');
  expect(own.documents.map((d) => d.document_id)).toContain(visit);
  expect(h.audit.filter((r) => r.patientId === tess && r.actor === gina && r.action === 'summary.read').length).toBeGreaterThan(0);
});

it("leaves out of a proxy's trends the points read from a private document", async () => {
  const points = (reply: TrendsReply) => reply.series.flatMap((s) => s.points).length;
  const ownTrends = await h.get(TrendsService).get(owner);
  expect(points(ownTrends)).toBeGreaterThan(0);
  expect((await h.get(TrendsService).get(proxy)).series.length).toBeGreaterThan(0);
  await setPrivate(ccda, true);
  const proxyTrends = await h.eventually('the C-CDA private', async () => {
    const reply = await h.get(TrendsService).get(proxy);
    return points(reply) === 0 ? reply : undefined;
  });
  expect(JSON.stringify(proxyTrends)).not.toContain(ccda);
  const csv = await h.get(TrendsService).exportCsv(proxy);
  expect(csv.rows).toBe(0);
  expect(points(await h.get(TrendsService).get(owner))).toBe(points(ownTrends));
  // The IPS a proxy downloads carries no result read from it either.
  const observations = (bundle: unknown) => JSON.stringify(bundle).split('"resourceType":"Observation"').length - 1;
  const ownIps = await h.get(ShareFormatsService).fhir(owner, { user: tess });
  const proxyIps = await h.get(ShareFormatsService).fhir(proxy, { user: tess });
  expect(observations(ownIps)).toBeGreaterThan(0);
  expect(observations(proxyIps)).toBe(0);
});

it('shows the document to proxies again once it is no longer private', async () => {
  await setPrivate(visit, false);
  const back = await h.eventually('the flag cleared', async () => {
    const item = await read(proxy);
    return medicines(item).includes('Sertraline') ? item : undefined;
  });
  expect(back.documents.map((d) => d.document_id)).toContain(visit);
});
