import { DOCUMENT_PRIVACY_SUBJECTS, type CallerIdentity, type DocumentListItem, type DomainError, type UploadReply } from '@medfolio/contracts';
import { documentFiles as files } from '@medfolio/testing';
import { DocumentsService } from './services/documents.service';
import { caller, DocumentsHarness, newUserId } from './testing/documents-harness';

/**
 * Private documents (family, issue 30) on real PostgreSQL, S3 and NATS JetStream: the owner, as
 * themself, marks a document private; a proxy (a caller with `actor`: a guardian or caregiver)
 * then neither lists it nor gets a download link (404, as for a document that does not exist, the
 * attempt audited as denied), cannot mark documents; the owner still sees and downloads it; the
 * event summary keeps the flag from is in the outbox with the change.
 */
const h = new DocumentsHarness({ storage: 's3', bus: 'jetstream' });
let service: DocumentsService;

beforeAll(async () => {
  await h.start();
  service = h.get(DocumentsService);
}, 60_000);
afterAll(() => h.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: DomainError) => e.code);
const proxy = (patient: string, who: string, role: 'guardian' | 'view' | 'manage'): CallerIdentity => ({ ...caller(patient), actor: { userId: who, role } });

async function uploaded(owner: string, names: string[]): Promise<DocumentListItem[]> {
  const answer = await h.upload(owner, names.map((name) => ({ name, data: files.pdf(name) })));
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as UploadReply).documents;
}

describe('a document its owner marked private', () => {
  const tess = newUserId();
  const gina = newUserId();
  let note: DocumentListItem;
  let visit: DocumentListItem;

  beforeAll(async () => {
    [note, visit] = await uploaded(tess, ['school-note.pdf', 'clinic-visit.pdf']);
  });

  it('is marked by the owner only, acting as themself', async () => {
    expect(await codeOf(service.setPrivate(proxy(tess, gina, 'guardian'), { document_id: visit!.id, private: true }))).toBe('FORBIDDEN');
    expect(await codeOf(service.setPrivate(caller(gina), { document_id: visit!.id, private: true }))).toBe('NOT_FOUND');
    const marked = await service.setPrivate(caller(tess), { document_id: visit!.id, private: true });
    expect(marked).toMatchObject({ id: visit!.id, filename: 'clinic-visit.pdf', private: true });
    const events = await h.sql<{ payload: { document_id: string; owner_id: string; private: boolean } }>(`SELECT payload FROM documents.outbox WHERE subject = $1`, [DOCUMENT_PRIVACY_SUBJECTS.privacyChanged]);
    expect(events.map((e) => e.payload)).toEqual([{ document_id: visit!.id, owner_id: tess, private: true }]);
    // Marking it again changes nothing and sends no second event.
    await service.setPrivate(caller(tess), { document_id: visit!.id, private: true });
    expect(await h.sql(`SELECT 1 FROM documents.outbox WHERE subject = $1`, [DOCUMENT_PRIVACY_SUBJECTS.privacyChanged])).toHaveLength(1);
    expect(h.audit.filter((r) => r.action === 'document.privacy' && r.patientId === tess && r.outcome === 'success')).toHaveLength(2);
  });

  it('is left out of a proxy\'s list and cannot be downloaded or deleted by them; the owner sees everything', async () => {
    for (const role of ['guardian', 'view', 'manage'] as const) {
      const list = await service.list(proxy(tess, gina, role));
      expect(list.map((d) => d.filename)).toEqual(['school-note.pdf']);
      expect(await codeOf(service.downloadLink(proxy(tess, gina, role), { document_id: visit!.id }))).toBe('NOT_FOUND');
    }
    expect(await codeOf(service.delete(proxy(tess, gina, 'manage'), { document_id: visit!.id }))).toBe('NOT_FOUND');
    expect((await service.downloadLink(proxy(tess, gina, 'view'), { document_id: note!.id })).filename).toBe('school-note.pdf');
    const denied = h.audit.filter((r) => r.patientId === tess && r.actor === gina && r.entityId === visit!.id && r.outcome === 'denied');
    // The proxy's and a stranger's attempts to mark it are in the record's history too.
    expect(denied.map((r) => r.action).sort()).toEqual(['document.delete', 'document.download-link', 'document.download-link', 'document.download-link', 'document.privacy', 'document.privacy']);
    const own = await service.list(caller(tess));
    expect(own.map((d) => [d.filename, d.private]).sort()).toEqual([['clinic-visit.pdf', true], ['school-note.pdf', false]]);
    expect((await service.downloadLink(caller(tess), { document_id: visit!.id })).filename).toBe('clinic-visit.pdf');
  });

  it('is shown to proxies again once the owner unmarks it', async () => {
    await service.setPrivate(caller(tess), { document_id: visit!.id, private: false });
    expect((await service.list(proxy(tess, gina, 'view'))).map((d) => d.filename).sort()).toEqual(['clinic-visit.pdf', 'school-note.pdf']);
    const events = await h.sql<{ payload: { private: boolean } }>(`SELECT payload FROM documents.outbox WHERE subject = $1 ORDER BY created_at`, [DOCUMENT_PRIVACY_SUBJECTS.privacyChanged]);
    expect(events.map((e) => e.payload.private)).toEqual([true, false]);
  });
});
