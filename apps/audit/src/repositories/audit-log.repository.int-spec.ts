import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AuditEventDto, type CallerIdentity } from '@medfolio/contracts';
import { type AuditRecorder } from '@medfolio/audit-client';
import { migrate, serviceDataSourceOptions } from '@medfolio/persistence';
import { AuditLogEntry } from '../entities/audit-log-entry.entity';
import { AUDIT_MIGRATIONS } from '../migrations';
import { writerRole } from '../migrations/1763700000000-create-audit-log';
import { AuditLogService } from '../services/audit-log.service';
import { AuditLogRepository } from './audit-log.repository';
import type { PeopleRepository, PersonName } from './people.repository';

const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `audit_it_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const role = writerRole(schema);

function options(connectionOptions?: string) {
  return serviceDataSourceOptions({
    schema,
    url: databaseUrl,
    entities: [AuditLogEntry],
    migrations: AUDIT_MIGRATIONS,
    poolSize: 3,
    ...(connectionOptions ? { connectionOptions } : {}),
  });
}

function event(patientId: string, action = 'document.list'): AuditEventDto {
  return Object.assign(new AuditEventDto(), {
    id: randomUUID(),
    occurredAt: new Date().toISOString(),
    service: 'documents',
    actor: patientId,
    action,
    entityType: 'document',
    patientId,
    outcome: 'success',
    ip: '127.0.0.1',
    correlationId: randomUUID(),
    policy: 'owner',
  });
}

const noRecorder = { record: jest.fn() } as unknown as AuditRecorder;
/** identity's names of proxies (the request/reply boundary): none known. */
const noPeople = { namesOn: async () => new Map<string, PersonName>() } as unknown as PeopleRepository;

describe('audit log on real Postgres', () => {
  let owner: DataSource;
  let writer: DataSource;
  let service: AuditLogService;

  beforeAll(async () => {
    owner = await new DataSource(options()).initialize();
    await migrate(owner);
    writer = await new DataSource(options(`-c role=${role}`)).initialize();
    service = new AuditLogService(new AuditLogRepository(writer), noRecorder, noPeople);
  });

  afterAll(async () => {
    await writer?.destroy();
    await owner?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await owner?.query(`DROP ROLE IF EXISTS "${role}"`).catch(() => undefined);
    await owner?.destroy();
  });

  it('writes with the writer role, which may INSERT and SELECT but not UPDATE or DELETE', async () => {
    expect(await service.append(event('p-1'))).toBe('appended');
    const [{ current_user: current }] = await writer.query(`SELECT current_user`);
    expect(current).toBe(role);
    await expect(writer.query(`UPDATE "${schema}".audit_log SET actor = 'x'`)).rejects.toThrow(/permission denied/);
    await expect(writer.query(`DELETE FROM "${schema}".audit_log`)).rejects.toThrow(/permission denied/);
    await expect(writer.query(`TRUNCATE "${schema}".audit_log`)).rejects.toThrow(/permission denied/);
  });

  it('refuses UPDATE and DELETE even for the owner (append-only triggers)', async () => {
    await expect(owner.query(`UPDATE "${schema}".audit_log SET actor = 'x'`)).rejects.toThrow(/append-only/);
    await expect(owner.query(`DELETE FROM "${schema}".audit_log`)).rejects.toThrow(/append-only/);
  });

  it('stores a redelivered record once', async () => {
    const e = event('p-2');
    expect(await service.append(e)).toBe('appended');
    expect(await service.append(e)).toBe('duplicate');
    const rows: unknown[] = await owner.query(`SELECT 1 FROM "${schema}".audit_log WHERE event_id = $1`, [e.id]);
    expect(rows).toHaveLength(1);
  });

  it('keeps the chain gap-free under concurrent appends', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => service.append(event(`p-${i % 4}`))));
    expect(await service.verify()).toEqual({ intact: true, checked: 22, firstBreak: null });
  });

  it('appends the records delivered together in one transaction, chain intact, duplicates apart', async () => {
    const before = (await service.verify()).checked;
    const stored = event('p-batch');
    await service.append(stored);
    const batch = Array.from({ length: 60 }, () => event('p-batch'));
    const twice = batch[7]!;
    const results = await Promise.allSettled([
      ...batch.map((e) => service.append(e)),
      service.append({ ...twice }),
      service.append(stored),
    ]);
    const values = results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'));
    expect(values.slice(0, 60)).toEqual(Array(60).fill('appended'));
    expect(values.slice(60)).toEqual(['duplicate', 'duplicate']);
    expect(await service.verify()).toEqual({ intact: true, checked: before + 61, firstBreak: null });
    // One transaction for the 60 (they share the batch's recorded_at), positions in submission order.
    const rows: { event_id: string; recorded_at: Date }[] = await owner.query(
      `SELECT event_id, recorded_at FROM "${schema}".audit_log WHERE patient_id = 'p-batch' AND event_id <> $1 ORDER BY position`,
      [stored.id],
    );
    expect(rows.map((r) => r.event_id)).toEqual(batch.map((e) => e.id));
    expect(new Set(rows.map((r) => r.recorded_at.getTime())).size).toBe(1);
  });

  // The entries below were appended in batches (the concurrent appends above share transactions).
  describe('tampering (as a superuser that switched the triggers off) is detected by verify', () => {
    const tamper = async (sql: string) => {
      // A fresh copy of the log each time: tampering one test must not leak into the next.
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`SET session_replication_role = replica`);
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    let backup: string;

    beforeEach(async () => {
      backup = `"${schema}".audit_log_backup_${Math.floor(Math.random() * 1e9)}`;
      await owner.query(`CREATE TABLE ${backup} AS SELECT * FROM "${schema}".audit_log`);
    });

    afterEach(async () => {
      await tamper(`DELETE FROM "${schema}".audit_log; INSERT INTO "${schema}".audit_log SELECT * FROM ${backup}; DROP TABLE ${backup}`);
      expect((await service.verify()).intact).toBe(true);
    });

    it('an edited row', async () => {
      await tamper(`UPDATE "${schema}".audit_log SET actor = 'intruder' WHERE position = 5`);
      expect(await service.verify()).toMatchObject({ intact: false, firstBreak: { position: 5, reason: 'hash-mismatch' } });
    });

    it('a deleted row', async () => {
      await tamper(`DELETE FROM "${schema}".audit_log WHERE position = 8`);
      expect(await service.verify()).toMatchObject({ intact: false, firstBreak: { position: 8, reason: 'gap' } });
    });

    it('reordered rows (positions swapped)', async () => {
      await tamper(`
        UPDATE "${schema}".audit_log SET position = -1 WHERE position = 10;
        UPDATE "${schema}".audit_log SET position = 10 WHERE position = 11;
        UPDATE "${schema}".audit_log SET position = 11 WHERE position = -1;`);
      expect(await service.verify()).toMatchObject({ intact: false, firstBreak: { position: 10 } });
    });
  });

  it('pages a patient history newest first', async () => {
    const recorder = { record: jest.fn().mockResolvedValue(undefined) } as unknown as AuditRecorder;
    const reader = new AuditLogService(new AuditLogRepository(writer), recorder, noPeople);
    const patient = `p-${randomUUID()}`;
    for (const action of ['document.upload', 'document.list', 'document.download-link']) await reader.append(event(patient, action));
    const caller: CallerIdentity = { userId: patient, roles: ['patient'], correlationId: 'c' };
    const page = await reader.history(caller, { page: 1, page_size: 2 });
    expect(page.total).toBe(3);
    expect(page.results.map((r) => r.action)).toEqual(['document.download-link', 'document.list']);
    expect(page.results[0]).toMatchObject({ who: 'you', what: 'Downloaded a document', from: '127.0.0.1', entity_type: 'document', entity_id: null, reason: null });
    expect(recorder.record).toHaveBeenCalledWith(caller, expect.objectContaining({ action: 'history.read', patientId: patient }));
    await expect(reader.history({ roles: [], correlationId: 'c' }, {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('names the document touched and says why a failure failed', async () => {
    const reader = new AuditLogService(new AuditLogRepository(writer), noRecorder, noPeople);
    const patient = `p-${randomUUID()}`;
    const documentId = randomUUID();
    await reader.append({ ...event(patient, 'document.download-link'), entityId: documentId, outcome: 'failure' });
    await reader.append({ ...event(patient, 'login.failed'), entityType: 'session', outcome: 'failure' });
    const page = await reader.history({ userId: patient, roles: ['patient'], correlationId: 'c' }, {});
    expect(page.results.map(({ action, entity_type, entity_id, reason }) => ({ action, entity_type, entity_id, reason }))).toEqual([
      { action: 'login.failed', entity_type: 'session', entity_id: null, reason: 'Wrong e-mail address or password.' },
      { action: 'document.download-link', entity_type: 'document', entity_id: documentId, reason: 'There is no such document (it may have been deleted).' },
    ]);
  });

  it("names who acted by proxy, as identity names them, and says 'you' to the proxy reading", async () => {
    const patient = randomUUID();
    const [ana, ben] = [randomUUID(), randomUUID()];
    const people = { namesOn: jest.fn(async () => new Map<string, PersonName>([[ana, { user_id: ana, first_name: 'Ana', relation: 'caregiver' }]])) } as unknown as PeopleRepository;
    const reader = new AuditLogService(new AuditLogRepository(writer), noRecorder, people);
    await reader.append({ ...event(patient, 'document.upload'), actor: ana, policy: 'proxy:manage' });
    await reader.append({ ...event(patient, 'summary.read'), actor: ben, policy: 'proxy:guardian' });
    const owner = await reader.history({ userId: patient, roles: ['patient'], correlationId: 'c' }, {});
    expect(owner.results.map(({ who, actor_name, actor_relation, action }) => ({ who, actor_name, actor_relation, action }))).toEqual([
      { who: 'A guardian (guardian)', actor_name: null, actor_relation: 'guardian', action: 'summary.read' },
      { who: 'Ana (caregiver)', actor_name: 'Ana', actor_relation: 'caregiver', action: 'document.upload' },
    ]);
    expect(people.namesOn).toHaveBeenCalledWith(expect.anything(), patient, expect.arrayContaining([ana, ben]));
    const asAna = await reader.history({ userId: patient, roles: ['patient'], correlationId: 'c', actor: { userId: ana, role: 'manage' } }, {});
    expect(asAna.results.find((r) => r.action === 'document.upload')!.who).toBe('you');
  });
});
