import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  BILLING_SUBJECTS,
  DOCUMENTS_SUBJECTS,
  DomainError,
  STREAMS,
  SUBJECTS,
  SUMMARY_SUBJECTS,
  type AuditEventDto,
  type DocumentDeletedEvent,
  type DocumentUploadedEvent,
  type EntitlementChangedEvent,
  type PatientIdentity,
  type PlanId,
} from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import { INTERNAL_TOKEN_HEADER, JetStreamEventBus, type EventBus, type EventEnvelope } from '@medfolio/messaging';
import { createServiceHttpApp } from '@medfolio/runtime';
import { SummaryAppModule } from '../app.module';
import { SummaryConfig } from '../config';
import { GrantsRepository } from '../repositories/grants.repository';
import { PatientIdentityRepository } from '../repositories/patient-identity.repository';
import { ShareNotifierRepository } from '../repositories/share-notifier.repository';
import { eventually, IsolatedEventBus, isolatedDeadLetterPrefix } from '@medfolio/testing';

/** A document the stand-in documents endpoint serves. */
export interface ServedDocument {
  ownerId: string;
  filename: string;
  contentType: string;
  data: Buffer;
  /** Where the document was fetched from (documents' X-Document-Source), for documents a connection added. */
  source?: string;
}

/**
 * The summary service as it runs in service mode, on a fresh real PostgreSQL database and the
 * machine's real NATS JetStream (under a prefix of this run's own). Documents' internal content
 * route is stood in for by a small HTTP server with the same contract (token, owner check, filename
 * header), which counts its reads; the real route is exercised end to end by apps/system-e2e.
 * `restart()` stops the service and starts it again on the same database and streams.
 */
export class SummaryHarness {
  app!: NestFastifyApplication;
  config!: SummaryConfig;
  bus!: EventBus;
  readonly documents = new Map<string, ServedDocument>();
  /** Content reads per document id. */
  readonly reads = new Map<string, number>();
  readonly audit: AuditEventDto[] = [];
  readonly built: Array<{ user_id: string; version: number }> = [];
  readonly internalToken = randomBytes(32).toString('base64url');
  readonly shareLinkKey = randomBytes(32).toString('base64');
  /**
   * Share links' calls to identity and notifications (request/reply), answered here: the NATS server
   * is shared with other test runs, whose real services must not answer ours (nor ours theirs).
   * The real calls are exercised end to end by apps/system-e2e.
   */
  readonly ownerEmails = new Map<string, string>();
  readonly mail: Array<{ to: string; data: { label: string; viewed_at: string }; idempotencyKey: string }> = [];
  /**
   * Identity's answers for patients' names and dates of birth: a patient's own entry, else
   * `defaultPatientIdentity` (every owner has an account); null there: NOT_FOUND. `identityDown`
   * makes identity fail to answer.
   */
  readonly patientIdentities = new Map<string, PatientIdentity>();
  defaultPatientIdentity: PatientIdentity | null = { first_name: 'Test', last_name: 'Patient', date_of_birth: '1970-01-01' };
  identityDown = false;
  /** Providers' grants (documents answers documents.grant.check): patient id → provider user ids. */
  readonly grants = new Map<string, Set<string>>();
  /** Identity asked for a patient's name, per patient id. */
  readonly identityReads = new Map<string, number>();
  private readonly run = randomBytes(4).toString('hex');
  private readonly database = `summary_it_${this.run}`;
  private readonly adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  private spoolDir = '';
  private server?: Server;
  private nats?: NatsConnection;
  private env: Record<string, string> = {};

  get prefix(): string {
    return `sum${this.run}`;
  }

  async start(extraEnv: Record<string, string> = {}): Promise<this> {
    await this.admin(`CREATE DATABASE ${this.database}`);
    this.spoolDir = await mkdtemp(path.join(tmpdir(), 'summary-it-'));
    const server = createServer((req, res) => this.serve(req.url ?? '', req.headers[INTERNAL_TOKEN_HEADER], res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(this.adminUrl);
    url.pathname = `/${this.database}`;
    this.env = {
      DATABASE_URL: url.toString(),
      DATA_DIR: this.spoolDir,
      SUMMARY_SPOOL_DIR: this.spoolDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: this.internalToken,
      MEDFOLIO_MODE: 'service',
      // Service mode starts only with its secrets given.
      SHARE_LINK_KEY: this.shareLinkKey,
      DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      SUMMARY_REBUILD_DELAY_MS: '200',
    };
    const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
    this.nats = await connect({ servers: natsUrl.split(',') });
    const inner = await JetStreamEventBus.connect({ connection: this.nats, name: `summary-it-${this.run}`, deadLetterPrefix: isolatedDeadLetterPrefix(this.prefix) });
    this.bus = new IsolatedEventBus(inner, this.prefix);
    for (const stream of [STREAMS.AUDIT, STREAMS.DOCUMENTS, STREAMS.BILLING, STREAMS.SUMMARY]) await this.bus.ensureStream({ name: stream.name, subjects: [...stream.subjects] });
    await this.bus.consume({ stream: STREAMS.AUDIT.name, durable: 'test-audit', filterSubjects: [SUBJECTS.audit.recorded] }, async (event: EventEnvelope) => {
      this.audit.push(event.data as AuditEventDto);
    });
    await this.bus.consume({ stream: STREAMS.SUMMARY.name, durable: 'test-built', filterSubjects: [SUMMARY_SUBJECTS.built] }, async (event: EventEnvelope) => {
      this.built.push(event.data as { user_id: string; version: number });
    });
    await this.boot(extraEnv);
    return this;
  }

  /** Stops the service (not the database or the streams) and starts it again with these settings. */
  async restart(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.app.close();
    await this.boot(extraEnv);
  }

  get<T>(token: new (...args: never[]) => T): T {
    return this.app.get(token);
  }

  async uploaded(documentId: string, ownerId: string): Promise<void> {
    const event: DocumentUploadedEvent = {
      document_id: documentId,
      owner_id: ownerId,
      kind: 'pdf',
      content_type: 'application/pdf',
      size: this.documents.get(documentId)?.data.length ?? 0,
      sha256: '0'.repeat(64),
      storage_key: `documents/${ownerId}/${documentId}`,
      uploaded_at: new Date().toISOString(),
    };
    await this.bus.publish(DOCUMENTS_SUBJECTS.uploaded, event, { msgId: randomUUID() });
  }

  /** Billing's event: the user's plan changed (health trends are gated by it). */
  async planChanged(userId: string, plan: PlanId, changedAt = new Date()): Promise<void> {
    const event: EntitlementChangedEvent = { user_id: userId, plan, changed_at: changedAt.toISOString() } as EntitlementChangedEvent;
    await this.bus.publish(BILLING_SUBJECTS.entitlementChanged, event, { msgId: randomUUID() });
  }

  async deleted(documentId: string, ownerId: string): Promise<void> {
    this.documents.delete(documentId);
    const event: DocumentDeletedEvent = { document_id: documentId, owner_id: ownerId, storage_key: `documents/${ownerId}/${documentId}`, deleted_at: new Date().toISOString() };
    await this.bus.publish(DOCUMENTS_SUBJECTS.deleted, event, { msgId: randomUUID() });
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.app.get(DataSource).query(query, params);
  }

  /** Waits until `probe` returns something other than undefined (events are asynchronous). */
  eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    return eventually(what, probe, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.bus?.close();
    if (this.nats) {
      const jsm = await jetstreamManager(this.nats);
      for await (const info of jsm.streams.list()) {
        if (info.config.name.startsWith(`${this.prefix.toUpperCase()}_`)) await jsm.streams.delete(info.config.name);
      }
      await this.nats.close();
    }
    await new Promise((resolve) => this.server?.close(resolve));
    await this.admin(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`);
    await rm(this.spoolDir, { recursive: true, force: true });
  }

  private async boot(extraEnv: Record<string, string>): Promise<void> {
    this.config = loadConfig(SummaryConfig, { ...this.env, ...extraEnv });
    const module = SummaryAppModule.register({ config: this.config, eventBus: this.bus, http: true });
    const notifier: Pick<ShareNotifierRepository, 'ownerEmail' | 'sendViewed'> = {
      ownerEmail: async (owner) => this.ownerEmails.get(owner.userId ?? '') ?? 'owner@example.com',
      sendViewed: async (_caller, to, data, idempotencyKey) => {
        this.mail.push({ to, data, idempotencyKey });
      },
    };
    const identities: Pick<PatientIdentityRepository, 'of'> = {
      of: async (patientId) => {
        this.identityReads.set(patientId, (this.identityReads.get(patientId) ?? 0) + 1);
        if (this.identityDown) throw new DomainError('UNAVAILABLE', 'identity did not answer');
        const found = this.patientIdentities.get(patientId) ?? this.defaultPatientIdentity;
        if (!found) throw new DomainError('NOT_FOUND', 'User not found.');
        return found;
      },
    };
    const grants: Pick<GrantsRepository, 'check'> = {
      check: async (caller, patientId) => {
        if (!caller.userId || !this.grants.get(patientId)?.has(caller.userId)) throw new DomainError('NOT_FOUND', 'Patient not found.');
        return { grant_id: `grant-${patientId.slice(0, 8)}`, display_name: 'Dr Test' };
      },
    };
    module.providers = (module.providers ?? []).map((p) => {
      if (p === ShareNotifierRepository) return { provide: ShareNotifierRepository, useValue: notifier };
      if (p === PatientIdentityRepository) return { provide: PatientIdentityRepository, useValue: identities };
      if (p === GrantsRepository) return { provide: GrantsRepository, useValue: grants };
      return p;
    });
    this.app = await createServiceHttpApp(module);
    this.app.useLogger(false);
    await this.app.listen({ port: 0, host: '127.0.0.1' });
  }

  /** GET /internal/documents/{id}/content?owner=..., as the documents service answers it. */
  private serve(url: string, token: string | string[] | undefined, res: import('node:http').ServerResponse): void {
    const [, id = '', owner = ''] = /^\/internal\/documents\/([0-9a-f-]{36})\/content\?owner=([A-Za-z0-9_-]+)$/.exec(url) ?? [];
    if (token !== this.internalToken) {
      res.writeHead(403).end();
      return;
    }
    const document = this.documents.get(id);
    if (!document || document.ownerId !== owner) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Document not found.","code":"NOT_FOUND"}');
      return;
    }
    this.reads.set(id, (this.reads.get(id) ?? 0) + 1);
    res
      .writeHead(200, {
        'content-type': document.contentType,
        'x-document-filename': encodeURIComponent(document.filename),
        ...(document.source ? { 'x-document-source': encodeURIComponent(document.source) } : {}),
      })
      .end(document.data);
  }

  private async admin(sql: string): Promise<void> {
    const client = new Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
