import type { ClinicalFact } from '@medfolio/clinical';
import { DomainError, SHARING_MESSAGES, SUMMARY_MESSAGES, type CallerIdentity, type SummaryItem, type SummaryQueryDto } from '@medfolio/contracts';
import { refusal } from '@medfolio/testing';
import { fakes } from '../testing/fakes';
import { applyOverrides, identify, type EngineOutput } from './summary-model';
import type { SharingService } from './sharing.service';
import { SummaryService } from './summary.service';
import type { PrivateDocumentsRepository } from '../repositories/private-documents.repository';

const OWNER = '1f1e2d3c-0000-4000-8000-000000000001';
const OTHER = '1f1e2d3c-0000-4000-8000-000000000002';
const owner: CallerIdentity = { userId: OWNER, roles: [], correlationId: 'c-1' };
const other: CallerIdentity = { userId: OTHER, roles: [], correlationId: 'c-2' };
const anonymous: CallerIdentity = { roles: [], correlationId: 'c-3' };

const metformin: ClinicalFact = {
  section: 'medications',
  category: 'medication',
  text: 'Metformin 500 mg by mouth twice daily',
  sources: [{ documentId: 'd1', filename: 'labs.pdf', page: 1, quote: 'Metformin 500 mg PO BID' }],
};

function setup() {
  const f = fakes();
  // Every id but the caller's own goes to share links (sharing.service.ts, covered by summary's integration tests).
  const handedToSharing: Array<{ caller: CallerIdentity; query: SummaryQueryDto }> = [];
  const sharing = {
    ownersLink: () => Promise.resolve(null),
    patientOf: () => Promise.resolve({ name: 'Ada Example', given: 'Ada', family: 'Example', birth_date: '1980-04-02' }),
    view: (caller: CallerIdentity, query: SummaryQueryDto) => {
      handedToSharing.push({ caller, query });
      return Promise.reject(new DomainError('NOT_FOUND', SHARING_MESSAGES.notValid));
    },
  } as unknown as SharingService;
  const privacy = { privateIds: () => Promise.resolve(new Set<string>()) } as unknown as PrivateDocumentsRepository;
  const service = new SummaryService(f.as.documents, f.as.versions, f.as.audit, f.engine, f.as.relay, sharing, privacy);
  // Version 1, as the builder writes it.
  const output: EngineOutput = { facts: identify([metformin]), noneKnown: [], droppedUnsupported: 0 };
  f.versions.versions.push({ userId: OWNER, version: 1, engine: 'local', engineOutput: output, builtAt: new Date(), ...applyOverrides(output, []) });
  f.versions.patients.set(OWNER, { latestVersion: 1, confirmedVersion: null, rebuildDueAt: null });
  f.documents.rows.push({
    documentId: 'd1', userId: OWNER, filename: 'labs.pdf', contentType: 'application/pdf', uploadedAt: new Date(), state: 'read',
    problems: [], facts: [], noneKnown: [], documentDate: null, claimedUntil: null, attempts: 1, recordKind: null, observationsRead: true,
  });
  return { ...f, service, handedToSharing, factId: output.facts[0]!.id };
}

const medications = (item: SummaryItem) => item.sections.find((s) => s.key === 'medications')!.facts;

describe('SummaryService', () => {
  it('shows the owner their summary, audited', async () => {
    const { service, audit } = setup();
    const [item] = await service.get(owner, { user: OWNER });
    expect(item).toMatchObject({ status: 'ready', version: 1, confirmed_version: null });
    expect(item!.summary).toContain('Metformin 500 mg');
    expect(item!.documents).toEqual([{ document_id: 'd1', filename: 'labs.pdf', state: 'read', problems: [] }]);
    expect(audit.records).toEqual([{ action: 'summary.read', outcome: 'success', patientId: OWNER }]);
  });

  it("shows the engine's problems with the document they belong to", async () => {
    const { service, versions } = setup();
    const latest = versions.versions[0]!;
    latest.engineOutput = { ...latest.engineOutput, problems: [{ filename: 'labs.pdf', reason: 'Part of labs.pdf could not be summarised.' }] };
    const [item] = await service.get(owner, { user: OWNER });
    expect(item!.documents).toEqual([{ document_id: 'd1', filename: 'labs.pdf', state: 'read', problems: ['Part of labs.pdf could not be summarised.'] }]);
  });

  it("hands another user's and a signed-out caller's id to share links, showing them nothing of the owner's", async () => {
    const { service, audit, handedToSharing } = setup();
    expect(await refusal(service.get(other, { user: OWNER }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
    expect(await refusal(service.get(anonymous, { user: OWNER }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(handedToSharing.map((h) => h.caller)).toEqual([other, anonymous]);
    expect(audit.records.filter((r) => r.action === 'summary.read' && r.outcome === 'success')).toEqual([]);
  });

  it('shows nothing when the audit record cannot be stored (fail closed)', async () => {
    const { service, audit } = setup();
    audit.failing = true;
    await expect(service.get(owner, { user: OWNER })).rejects.toThrow('audit unavailable');
  });

  it('reports processing while a document is read or a rebuild is due, and empty with nothing at all', async () => {
    const { service, documents, versions } = setup();
    documents.rows.push({ ...documents.rows[0]!, documentId: 'd2', state: 'pending' });
    expect((await service.get(owner, { user: OWNER }))[0]!.status).toBe('processing');
    expect((await service.get(other, { user: OTHER }))[0]).toMatchObject({ status: 'empty', version: 0 });
    versions.patients.set(OTHER, { latestVersion: 0, confirmedVersion: null, rebuildDueAt: new Date() });
    expect((await service.get(other, { user: OTHER }))[0]).toMatchObject({ status: 'processing', version: 0 });
  });

  it('hides a fact in a new version: still listed for the owner, gone from the text', async () => {
    const { service, factId, relay } = setup();
    const item = await service.hide(owner, { fact_id: factId, hidden: true });
    expect(item.version).toBe(2);
    expect(medications(item)[0]).toMatchObject({ id: factId, hidden: true });
    expect(item.summary).not.toContain('Metformin');
    expect(relay.kick).toHaveBeenCalled();
    const shown = await service.hide(owner, { fact_id: factId, hidden: false });
    expect(shown.version).toBe(3);
    expect(shown.summary).toContain('Metformin');
  });

  it('corrects a fact and keeps the correction when it is hidden later', async () => {
    const { service, factId } = setup();
    await service.edit(owner, { fact_id: factId, text: ' Metformin 1000 mg twice daily ' });
    const item = await service.hide(owner, { fact_id: factId, hidden: true });
    expect(medications(item)[0]).toMatchObject({ text: 'Metformin 1000 mg twice daily', edited: true, hidden: true });
  });

  it('answers 404 for an unknown fact and changes nothing', async () => {
    const { service, versions, audit } = setup();
    const error = await refusal(service.hide(owner, { fact_id: '00000000-0000-4000-8000-000000000000', hidden: true }));
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: SUMMARY_MESSAGES.factNotFound });
    expect(versions.versions).toHaveLength(1);
    expect(audit.records).toEqual([expect.objectContaining({ action: 'summary.fact-hide', outcome: 'failure' })]);
  });

  it("adds the patient's fact and removes only facts the patient added", async () => {
    const { service, factId } = setup();
    const added = await service.add(owner, { section: 'allergies', text: 'Latex' });
    const fact = added.sections.find((s) => s.key === 'allergies')!.facts[0]!;
    expect(fact).toMatchObject({ text: 'Latex', added_by_patient: true, sources: [] });
    expect(await refusal(service.remove(owner, { fact_id: factId }))).toMatchObject({ code: 'VALIDATION_FAILED', message: SUMMARY_MESSAGES.onlyAdded });
    const removed = await service.remove(owner, { fact_id: fact.id });
    expect(removed.sections.find((s) => s.key === 'allergies')!.facts).toEqual([]);
    expect(removed.version).toBe(3);
  });

  it('confirms the latest version only', async () => {
    const { service, factId } = setup();
    expect((await service.confirm(owner, { version: 1 })).confirmed_version).toBe(1);
    await service.hide(owner, { fact_id: factId, hidden: true });
    expect(await refusal(service.confirm(owner, { version: 1 }))).toMatchObject({ code: 'CONFLICT', message: SUMMARY_MESSAGES.changed });
    expect((await service.confirm(owner, { version: 2 })).confirmed_version).toBe(2);
  });

  it('lets no one else change the summary', async () => {
    const { service, factId, versions } = setup();
    expect(await refusal(service.hide(other, { fact_id: factId, hidden: true }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(service.add(anonymous, { section: 'allergies', text: 'x' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(versions.versions.filter((v) => v.userId === OWNER)).toHaveLength(1);
  });
});
