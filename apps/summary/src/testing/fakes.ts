// In-memory stand-ins for the summary's repositories and audit, for unit tests of its services.
import type { EntityManager } from 'typeorm';
import type { SummaryEngine } from '@medfolio/clinical';
import type { CallerIdentity } from '@medfolio/contracts';
import type { OutboxRelay } from '@medfolio/messaging/outbox';
import type { SummaryDocument, SummaryVersion } from '../entities';
import type { SummaryDocumentsRepository } from '../repositories/summary-documents.repository';
import type { PatientState, SummaryVersionsRepository, VersionDraft } from '../repositories/summary-versions.repository';
import type { SummaryAudit } from '../services/summary-audit';
import type { Override } from '../services/summary-model';

const NO_MANAGER = {} as EntityManager;

export class FakeVersions {
  readonly patients = new Map<string, PatientState>();
  readonly versions: SummaryVersion[] = [];
  readonly changes = new Map<string, Override[]>();

  async patient(userId: string): Promise<PatientState | null> {
    return this.patients.get(userId) ?? null;
  }

  async latest(userId: string, version: number): Promise<SummaryVersion | null> {
    return this.versions.find((v) => v.userId === userId && v.version === version) ?? null;
  }

  async overrides(userId: string): Promise<Override[]> {
    return [...(this.changes.get(userId) ?? [])];
  }

  /** As the real one: all or nothing (a throwing `before` leaves the changes as they were). */
  async write(
    userId: string,
    make: (overrides: Override[], latest: SummaryVersion | null, state: PatientState) => VersionDraft | null,
    options: { before?: (manager: EntityManager, latest: SummaryVersion | null, overrides: Override[]) => Promise<void> } = {},
  ): Promise<number | null> {
    const saved = new Map([...this.changes].map(([k, v]) => [k, v.map((o) => ({ ...o }))]));
    const state = this.patients.get(userId) ?? { latestVersion: 0, confirmedVersion: null, rebuildDueAt: null };
    const latest = await this.latest(userId, state.latestVersion);
    try {
      if (options.before) await options.before(NO_MANAGER, latest, await this.overrides(userId));
    } catch (error) {
      this.changes.clear();
      for (const [k, v] of saved) this.changes.set(k, v);
      throw error;
    }
    const draft = make(await this.overrides(userId), latest, state);
    if (!draft) return null;
    const version = state.latestVersion + 1;
    this.versions.push({ userId, version, engine: draft.engine, engineOutput: draft.output, sections: draft.sections, text: draft.text, builtAt: new Date() });
    this.patients.set(userId, { ...state, latestVersion: version });
    return version;
  }

  async upsertOverride(_manager: EntityManager, userId: string, change: Override): Promise<void> {
    const list = (this.changes.get(userId) ?? []).filter((o) => o.factId !== change.factId);
    this.changes.set(userId, [...list, change]);
  }

  async deleteOverride(_manager: EntityManager, userId: string, factId: string): Promise<void> {
    this.changes.set(userId, (this.changes.get(userId) ?? []).filter((o) => o.factId !== factId));
  }

  async confirm(userId: string, version: number): Promise<boolean> {
    const state = this.patients.get(userId);
    if (!state || state.latestVersion !== version) return false;
    this.patients.set(userId, { ...state, confirmedVersion: version });
    return true;
  }
}

export class FakeDocuments {
  readonly rows: SummaryDocument[] = [];

  async listForUser(userId: string): Promise<SummaryDocument[]> {
    return this.rows.filter((r) => r.userId === userId && r.state !== 'deleted');
  }

  /** As the repository: the patient's documents that were fetched from somewhere, by id. */
  async fetchedSources(userId: string): Promise<Map<string, { source: string; uploadedAt: Date }>> {
    const fetched = (await this.listForUser(userId)).filter((r) => r.source);
    return new Map(fetched.map((r) => [r.documentId, { source: r.source as string, uploadedAt: r.uploadedAt }]));
  }
}

export class FakeAudit {
  readonly records: Array<{ action: string; outcome: string; patientId: string; entityId?: string }> = [];
  failing = false;

  async record(_caller: CallerIdentity, action: string, outcome: string, patientId: string, entityId?: string): Promise<void> {
    if (this.failing) throw new Error('audit unavailable');
    this.records.push({ action, outcome, patientId, ...(entityId ? { entityId } : {}) });
  }

  async recordQuietly(caller: CallerIdentity, action: string, outcome: string, patientId: string, entityId?: string): Promise<void> {
    await this.record(caller, action, outcome, patientId, entityId).catch(() => undefined);
  }
}

export function fakes() {
  const versions = new FakeVersions();
  const documents = new FakeDocuments();
  const audit = new FakeAudit();
  const relay = { kick: jest.fn() };
  const engine: SummaryEngine = { name: 'local', read: jest.fn() };
  return {
    versions,
    documents,
    audit,
    relay,
    engine,
    as: {
      versions: versions as unknown as SummaryVersionsRepository,
      documents: documents as unknown as SummaryDocumentsRepository,
      audit: audit as unknown as SummaryAudit,
      relay: relay as unknown as OutboxRelay,
    },
  };
}
