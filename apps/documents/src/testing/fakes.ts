import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { DomainError, type AuditOutcome, type CallerIdentity, type PlanId } from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import { AppMetrics } from '@medfolio/observability';
import { BlobNotFoundError } from '@medfolio/storage';
import { DocumentsConfig } from '../config';
import type { DocumentRecord } from '../entities';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import type { DocumentsRepository, NewDocument } from '../repositories/documents.repository';
import type { EntitlementsRepository } from '../repositories/entitlements.repository';
import type { DocumentAction, DocumentAudit } from '../services/document-audit';
import { DocumentsMetrics } from '../services/documents-metrics';

/**
 * In-memory stand-ins for the documents service's repositories (its only I/O), for unit tests of
 * the services. They behave like the real ones where the services rely on it.
 */
export class FakeDocuments {
  readonly rows = new Map<string, DocumentRecord>();
  readonly unfinished = new Set<string>();
  readonly commits: NewDocument[][] = [];
  /** Make the next commit fail with this error (after the room check). */
  failCommit?: Error;

  async countActive(ownerId: string): Promise<number> {
    return [...this.rows.values()].filter((r) => r.ownerId === ownerId && !r.deletedAt).length;
  }

  async listActive(ownerId: string): Promise<DocumentRecord[]> {
    return [...this.rows.values()].filter((r) => r.ownerId === ownerId && !r.deletedAt);
  }

  async findActive(id: string): Promise<DocumentRecord | null> {
    const row = this.rows.get(id);
    return row && !row.deletedAt ? row : null;
  }

  async noteUnfinished(key: string): Promise<void> {
    this.unfinished.add(key);
  }

  async forgetUnfinished(keys: string[]): Promise<number> {
    let n = 0;
    for (const key of keys) if (this.unfinished.delete(key)) n += 1;
    return n;
  }

  async commitUpload(
    ownerId: string,
    documents: NewDocument[],
    assertRoom: (stored: number, manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await assertRoom(await this.countActive(ownerId), {} as EntityManager);
    if (this.failCommit) throw this.failCommit;
    this.commits.push(documents);
    for (const d of documents) {
      this.unfinished.delete(d.storageKey);
      this.rows.set(d.id, { ...d, thumbnailKey: null, deletedAt: null });
    }
  }

  async markDeleted(id: string, ownerId: string, at: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.ownerId !== ownerId || row.deletedAt) return false;
    row.deletedAt = at;
    return true;
  }
}

export class FakeEntitlements {
  plan: PlanId = 'free';

  /** Dependants' records, by patient id: the holder whose plan covers them, and the first name. */
  readonly households = new Map<string, { holderId: string; name: string; householdDocuments: number }>();

  async planOf(): Promise<PlanId> {
    return this.plan;
  }

  async scopeOf(ownerId: string): Promise<{ plan: PlanId; holderId: string; name: string | null }> {
    const member = this.households.get(ownerId);
    return { plan: this.plan, holderId: member?.holderId ?? ownerId, name: member?.name ?? null };
  }

  async householdCount(holderId: string): Promise<number> {
    return [...this.households.values()].find((m) => m.holderId === holderId)?.householdDocuments ?? 0;
  }
}

/** Blobs in memory; keys made by the real repository's rules. */
export class FakeBlobs {
  readonly stored = new Map<string, { data: Buffer; contentType: string }>();
  readonly deleted: string[] = [];
  readonly urls: string[] = [];
  private readonly keys = new DocumentBlobsRepository({} as never);

  documentKey(ownerId: string, id: string): string {
    return this.keys.documentKey(ownerId, id);
  }

  thumbnailKey(ownerId: string, id: string): string {
    return this.keys.thumbnailKey(ownerId, id);
  }

  async put(key: string, body: Readable, contentType: string): Promise<{ key: string; size: number; sha256: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    this.stored.set(key, { data, contentType });
    return { key, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    const blob = this.stored.get(key);
    if (!blob) throw new BlobNotFoundError(key);
    return Readable.from([blob.data]);
  }

  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.stored.delete(key);
  }

  async downloadUrl(key: string, options: { expiresInSeconds: number; filename: string }): Promise<string> {
    const url = `https://files.test/${key}?expires=${options.expiresInSeconds}&filename=${encodeURIComponent(options.filename)}`;
    this.urls.push(url);
    return url;
  }
}

export class FakeAudit {
  readonly records: {
    action: DocumentAction;
    outcome: AuditOutcome;
    patientId: string;
    documentId?: string;
    actor?: string;
  }[] = [];
  /** While set, `record` fails closed as the real one does when the AUDIT stream is down. */
  down = false;

  async record(
    caller: CallerIdentity,
    action: DocumentAction,
    outcome: AuditOutcome,
    patientId: string,
    documentId?: string,
  ): Promise<void> {
    if (this.down)
      throw new DomainError(
        'UNAVAILABLE',
        'The audit log is unavailable, so this request was refused. Please try again shortly.',
      );
    this.records.push({
      action,
      outcome,
      patientId,
      ...(documentId ? { documentId } : {}),
      ...(caller.userId ? { actor: caller.userId } : {}),
    });
  }

  async recordQuietly(
    caller: CallerIdentity,
    action: DocumentAction,
    outcome: AuditOutcome,
    patientId: string,
    documentId?: string,
  ): Promise<void> {
    await this.record(caller, action, outcome, patientId, documentId).catch(() => undefined);
  }
}

export function testConfig(env: Record<string, string> = {}): DocumentsConfig {
  return loadConfig(DocumentsConfig, env);
}

export function testMetrics(): DocumentsMetrics {
  return new DocumentsMetrics(new AppMetrics(new Registry()));
}

/**
 * A fresh fake of each repository the services take, and the same objects cast for their
 * constructors (the fakes have the methods the services call).
 */
export function fakeRepositories() {
  const fakes = {
    documents: new FakeDocuments(),
    entitlements: new FakeEntitlements(),
    blobs: new FakeBlobs(),
    audit: new FakeAudit(),
  };
  const repos = {
    documents: fakes.documents as unknown as DocumentsRepository,
    entitlements: fakes.entitlements as unknown as EntitlementsRepository,
    blobs: fakes.blobs as unknown as DocumentBlobsRepository,
    audit: fakes.audit as unknown as DocumentAudit,
  };
  return { fakes, repos };
}
