import { randomUUID } from 'node:crypto';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { parse } from 'csv-parse/sync';
import { validateIpsBundle } from '@medfolio/clinical/fhir-testing';
import type { CallerIdentity, TrendSeries, TrendsReply } from '@medfolio/contracts';
import { CCDA_GLUCOSE, FHIR_GLUCOSE, refusal, trendDocuments } from '@medfolio/testing';
import { ShareFormatsService } from './services/share-formats.service';
import { SharingService } from './services/sharing.service';
import { SummaryService } from './services/summary.service';
import { TrendsService } from './services/trends.service';
import { pdfText } from './testing/pdf-text';
import { SummaryHarness } from './testing/summary-harness';

/**
 * Health trends on real PostgreSQL and NATS JetStream: a C-CDA and a FHIR Bundle uploaded (glucose in
 * mg/dL in one, mmol/L in the other) → observations stored per document → one series in one unit
 * citing both; the plan from billing's events gating it; the CSV; a share link with chosen trends
 * (page, PDF, IPS); deletion; and the backfill of documents read before trends existed.
 */
const h = new SummaryHarness();

beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop());

const owner = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });
const anyone = (): CallerIdentity => ({ roles: [], correlationId: randomUUID() });
const trends = () => h.get(TrendsService);

async function upload(ownerId: string, filename: string, contentType: string, data: Buffer): Promise<string> {
  const id = randomUUID();
  h.documents.set(id, { ownerId, filename, contentType, data });
  await h.uploaded(id, ownerId);
  return id;
}

const glucoseOf = (reply: TrendsReply): TrendSeries | undefined => reply.series.find((s) => s.key === 'glucose');

let userId: string;
let ccdaId: string;
let fhirId: string;

beforeAll(async () => {
  userId = randomUUID();
  const docs = trendDocuments();
  ccdaId = await upload(userId, 'ccd.xml', 'application/xml', docs.ccda);
  // The C-CDA first: the series' unit is the first seen of a tie (mg/dL).
  await h.eventually('the C-CDA read', async () => ((await h.sql(`SELECT 1 FROM summary.documents WHERE document_id = $1 AND state = 'read'`, [ccdaId])).length ? true : undefined));
  fhirId = await upload(userId, 'ips-bundle.json', 'application/fhir+json', docs.fhir);
  await h.eventually('both documents built', async () => {
    const [item] = await h.get(SummaryService).get(owner(userId), { user: userId });
    return item && item.status === 'ready' && item.documents.filter((d) => d.state === 'read').length === 2 ? item : undefined;
  }, 60_000);
}, 90_000);

it('stores each document\'s observations and gives a preview on the free plan: one key measure, the others locked, no timeline', async () => {
  const stored = await h.sql<{ document_id: string; origin: string; n: string }>(
    `SELECT document_id, origin, count(*) AS n FROM summary.observations WHERE user_id = $1 GROUP BY 1, 2 ORDER BY 1`,
    [userId],
  );
  expect(new Set(stored.map((r) => r.document_id))).toEqual(new Set([ccdaId, fhirId]));
  expect(stored.every((r) => r.origin === 'record' && Number(r.n) > 0)).toBe(true);
  const kinds = await h.sql<{ document_id: string; record_kind: string }>(`SELECT document_id, record_kind FROM summary.documents WHERE user_id = $1`, [userId]);
  expect(Object.fromEntries(kinds.map((k) => [k.document_id, k.record_kind]))).toEqual({ [ccdaId]: 'ccda', [fhirId]: 'fhir' });

  const preview = await trends().get(owner(userId));
  expect(preview.access).toBe('preview');
  expect(preview.series).toHaveLength(1);
  expect(preview.timeline).toEqual([]);
  expect(preview.locked.find((l) => l.key === 'glucose')).toEqual({ key: 'glucose', name: 'Glucose', points: 2 });
  expect(JSON.stringify(preview.locked)).not.toContain('126.11');
  expect(h.audit.filter((r) => r.patientId === userId && r.action === 'trends.read')).toHaveLength(1);
});

it('on Plus (billing\'s event): glucose from both documents on one line in mg/dL, each point citing its document, and a timeline', async () => {
  await h.planChanged(userId, 'plus');
  const full = await h.eventually('full access', async () => {
    const reply = await trends().get(owner(userId));
    return reply.access === 'full' ? reply : undefined;
  });
  expect(full.locked).toEqual([]);
  const glucose = glucoseOf(full);
  expect(glucose).toMatchObject({ name: 'Glucose', category: 'result', unit: 'mg/dL', ucum: 'mg/dL' });
  expect(glucose?.codes.map((c) => c.code)).toEqual(['2345-7']);
  expect(glucose?.points).toEqual([
    {
      date: CCDA_GLUCOSE.date,
      value: 100,
      original: { value: 100, unit: 'mg/dL' },
      range: { low: 70, high: 99, text: null },
      flag: 'high',
      flag_from: 'source',
      interpretation: 'H',
      sources: [{ document_id: ccdaId, filename: 'ccd.xml', page: null }],
    },
    {
      date: FHIR_GLUCOSE.date,
      value: 126.11,
      original: { value: 7, unit: 'mmol/L' },
      range: { low: 70.26, high: 99.09, text: null },
      flag: 'high',
      flag_from: 'source',
      interpretation: 'H',
      sources: [{ document_id: fhirId, filename: 'ips-bundle.json', page: null }],
    },
  ]);
  expect(full.timeline.length).toBeGreaterThan(3);
  expect(full.timeline.some((e) => e.kind === 'condition')).toBe(true);
  expect(full.timeline.every((e) => e.sources.every((s) => s.document_id === ccdaId || s.document_id === fhirId))).toBe(true);
  // A Family plan is full access too; back on Basic, a preview again.
  await h.planChanged(userId, 'basic');
  await h.eventually('preview again', async () => ((await trends().get(owner(userId))).access === 'preview' ? true : undefined));
  await h.planChanged(userId, 'pro');
  await h.eventually('full on Family', async () => ((await trends().get(owner(userId))).access === 'full' ? true : undefined));
});

it("says where a fetched record's points came from (the source documents hand over), and nothing of the kind for an upload's", async () => {
  const patient = randomUUID();
  const docs = trendDocuments();
  const source = 'Springfield General Hospital via MyChart';
  const uploadId = await upload(patient, 'ccd.xml', 'application/xml', docs.ccda);
  const fetchedId = randomUUID();
  h.documents.set(fetchedId, { ownerId: patient, filename: 'Springfield General Hospital via MyChart — fetched 2026-11-27.json', contentType: 'application/fhir+json', data: docs.fhir, source });
  await h.uploaded(fetchedId, patient);
  await h.eventually('both read', async () => ((await h.sql(`SELECT 1 FROM summary.documents WHERE user_id = $1 AND state = 'read'`, [patient])).length === 2 ? true : undefined), 60_000);
  expect(await h.sql(`SELECT document_id, source FROM summary.documents WHERE user_id = $1 ORDER BY source NULLS FIRST`, [patient])).toEqual([
    { document_id: uploadId, source: null },
    { document_id: fetchedId, source },
  ]);
  const glucose = (await trends().series(patient)).find((s) => s.key === 'glucose');
  const sources = glucose?.points.flatMap((p) => p.sources) ?? [];
  const fromRecord = sources.filter((s) => s.document_id === fetchedId);
  const fromUpload = sources.filter((s) => s.document_id === uploadId);
  expect(fromRecord.length).toBeGreaterThan(0);
  expect(fromUpload.length).toBeGreaterThan(0);
  for (const s of fromRecord) expect(s.fetched_from).toMatch(/^Springfield General Hospital via MyChart, fetched \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  for (const s of fromUpload) expect(s).not.toHaveProperty('fetched_from');
});

it('exports every observation as CSV, audited', async () => {
  const csv = await trends().exportCsv(owner(userId));
  const [{ n }] = (await h.sql<{ n: string }>(`SELECT count(*) AS n FROM summary.observations WHERE user_id = $1`, [userId])) as [{ n: string }];
  expect(csv.rows).toBe(Number(n));
  expect(csv.filename).toMatch(/^medfolio-trends-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parse(csv.content, { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(csv.rows);
  expect(rows.filter((r) => r['code'] === '2345-7').map((r) => [r['date'], r['value'], r['unit'], r['value_in_series_unit'], r['series_unit'], r['flag'], r['document_filename']])).toEqual([
    ['2024-03-01', '100', 'mg/dL', '100', 'mg/dL', 'high', 'ccd.xml'],
    ['2024-06-01', '7', 'mmol/L', '126.11', 'mg/dL', 'high', 'ips-bundle.json'],
  ]);
  expect(h.audit.filter((r) => r.patientId === userId && r.action === 'trends.export' && r.outcome === 'success')).toHaveLength(1);
});

it('shares chosen trends: validated keys, the shared page and PDF carry them (no sources), the IPS their latest values', async () => {
  const sharing = h.get(SharingService);
  expect(await refusal(sharing.create(owner(userId), { label: 'For my GP', trends: ['glucose', 'LOINC:0000-0'] }))).toMatchObject({
    code: 'VALIDATION_FAILED',
    message: expect.stringContaining('"LOINC:0000-0"'),
  });
  const link = await sharing.create(owner(userId), { label: 'For my GP', trends: ['glucose'] });
  expect(link.trends).toEqual(['glucose']);
  const summary = h.get(SummaryService);
  const [latest] = await summary.get(owner(userId), { user: userId });
  await summary.confirm(owner(userId), { version: latest!.version });

  const [shared] = await sharing.view(anyone(), { user: link.share_id });
  expect(shared?.trends?.map((s) => s.key)).toEqual(['glucose']);
  expect(shared?.trends?.[0]?.points.map((p) => [p.date, p.value, p.flag, p.sources])).toEqual([
    ['2024-03-01', 100, 'high', []],
    ['2024-06-01', 126.11, 'high', []],
  ]);

  const formats = h.get(ShareFormatsService);
  const pdf = await pdfText((await formats.pdf(anyone(), { user: link.share_id, size: 'a4' })).content_base64);
  expect(pdf).toContain('Health trends');
  expect(pdf).toMatch(/Glucose \(mg\/dL\)/);
  expect(pdf).toMatch(/2024-06-01 126\.11 mg\/dL 70\.26 – 99\.09 High/);

  // Changing the link's trends to none: the shared page has none.
  const cleared = await sharing.update(owner(userId), { link_id: link.id, trends: [] });
  expect(cleared.trends).toEqual([]);
  const [plain] = await sharing.view(anyone(), { user: link.share_id });
  expect(plain?.trends).toBeUndefined();

  // The owner's IPS: each series' latest value in Results, valid against the IPS profiles.
  const bundle = (await formats.fhir(owner(userId), { user: userId })) as unknown as Bundle;
  expect(validateIpsBundle(bundle)).toEqual([]);
  const observations = (bundle.entry ?? []).map((e) => e.resource).filter((r): r is Observation => r?.resourceType === 'Observation');
  const glucose = observations.filter((o) => o.code?.coding?.some((c) => c.code === '2345-7'));
  expect(glucose).toHaveLength(1);
  expect(glucose[0]).toMatchObject({
    effectiveDateTime: '2024-06-01',
    valueQuantity: { value: 126.11, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
    referenceRange: [{ low: { value: 70.26, code: 'mg/dL' }, high: { value: 99.09, code: 'mg/dL' } }],
    interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H' }] }],
  });
});

it('drops a deleted document\'s observations, and reads documents from before trends again at start-up (backfill)', async () => {
  await h.deleted(fhirId, userId);
  await h.eventually('the FHIR observations gone', async () =>
    (await h.sql(`SELECT 1 FROM summary.observations WHERE document_id = $1`, [fhirId])).length === 0 ? true : undefined,
  );
  expect(glucoseOf(await trends().get(owner(userId)))?.points.map((p) => p.value)).toEqual([100]);

  // As if the C-CDA had been read before this release: no observations, not marked.
  await h.sql(`DELETE FROM summary.observations WHERE document_id = $1`, [ccdaId]);
  await h.sql(`UPDATE summary.documents SET observations_read = false, record_kind = NULL WHERE document_id = $1`, [ccdaId]);
  const readsBefore = h.reads.get(ccdaId) ?? 0;
  await h.restart();
  await h.eventually('the backfill', async () => {
    const [row] = await h.sql<{ observations_read: boolean; record_kind: string | null }>(`SELECT observations_read, record_kind FROM summary.documents WHERE document_id = $1`, [ccdaId]);
    return row?.observations_read && row.record_kind === 'ccda' ? row : undefined;
  });
  expect(h.reads.get(ccdaId)).toBe(readsBefore + 1);
  expect(glucoseOf(await trends().get(owner(userId)))?.points.map((p) => [p.value, p.sources[0]?.document_id])).toEqual([[100, ccdaId]]);
});
