import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import { type CallerIdentity, CONNECTIONS_MESSAGES } from '@medfolio/contracts';
import { ConnectionsConfig } from '../config';
import { type Connection, ConnectionResource } from '../entities';
import type { DirectoryEntry } from '../directory/brands-directory';
import { EndpointDirectoryRepository } from '../repositories/endpoint-directory.repository';
import { type FhirAnswer, FhirServerRepository } from '../repositories/fhir-server.repository';
import { RecordDocumentsRepository } from '../repositories/record-documents.repository';
import { SmartServerRefusal, SmartServerRepository } from '../repositories/smart-server.repository';
import { SyncRepository, versionKey } from '../repositories/sync.repository';
import { ClientAuthService } from './client-auth.service';
import { TokenSealer } from './token-sealer';

/** One search a sync runs, keyed for its checkpoint. */
interface SyncSearch {
  type: string;
  params(patient: string): Record<string, string>;
}

/** What a patient-access sync reads (US Core's patient-facing types), one search each. */
export const SYNC_SEARCHES: readonly SyncSearch[] = [
  { type: 'Patient', params: (patient) => ({ _id: patient }) },
  ...['AllergyIntolerance', 'Condition', 'MedicationRequest', 'MedicationStatement', 'Immunization', 'Procedure', 'DocumentReference'].map((type) => ({ type, params: (patient: string) => ({ patient }) })),
  { type: 'Observation', params: (patient) => ({ patient, category: 'laboratory,vital-signs' }) },
];

/** Attachments fetched as Binary (C-CDA XML and PDF), to become documents of their own. */
const DOCUMENT_CONTENT_TYPES = new Set(['application/pdf', 'application/xml', 'text/xml', 'application/hl7-v3+xml', 'application/cda+xml']);
/** Renew the access token this long before it expires. */
const REFRESH_MARGIN_MS = 60_000;
/** A claim older than this belongs to a sync that died with its process. */
const STALE_CLAIM_MS = 30 * 60_000;
const MAX_RETRY_AFTER_SECONDS = 60;
const DUE_BATCH = 20;

/**
 * How often the schedule looks for connections due (milliseconds). Null: every
 * CONNECTIONS_SYNC_INTERVAL_MINUTES, at most every 10 minutes. Tests provide a short one, so the
 * timer itself can be seen syncing a connection without a request.
 */
export const SYNC_TICK_MS = Symbol('connections.sync-tick-ms');

/** The hospital's sign-in no longer works: the patient must connect again. */
class GrantExpired extends Error {}
/** The sync cannot go on now; `message` is shown to the patient as is. */
class SyncStopped extends Error {}

interface Run {
  connection: Connection;
  base: string;
  origin: string;
  patient: string;
  accessToken: string;
  budget: number;
  capped: boolean;
  /** A paging link pointed at another origin: that search stopped there (not followed). */
  offOrigin: boolean;
  requests: number;
}

/** The figures of one finished sync (for the audit log line and tests). */
export interface SyncResult {
  outcome: 'synced' | 'reconnect' | 'failed' | 'busy';
  changed: Record<string, number>;
  requests: number;
}

/**
 * Fetches a connection's FHIR resources into the service's table: one search per type (Patient,
 * allergies, conditions, medication requests and statements, immunizations, lab and vital-sign
 * observations, procedures, document references, and the PDF or C-CDA Binaries they point at),
 * following Bundle.link next on the endpoint's own origin only (page and resource caps), from a
 * checkpoint per type (`_lastUpdated=gt…`), retrying 429 (Retry-After) and 5xx with backoff,
 * renewing the access token before it expires and once on a 401; a refused refresh marks the
 * connection 'reconnect'. One sync at a time per connection (a claim in its row). Runs off the
 * request path: after connecting, on demand, and on a schedule (CONNECTIONS_SYNC_INTERVAL_MINUTES).
 */
@Injectable()
export class SyncService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SyncService.name);
  private readonly running = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    @Inject(ConnectionsConfig) private readonly config: ConnectionsConfig,
    @Inject(SyncRepository) private readonly repo: SyncRepository,
    @Inject(EndpointDirectoryRepository) private readonly directory: EndpointDirectoryRepository,
    @Inject(SmartServerRepository) private readonly smart: SmartServerRepository,
    @Inject(FhirServerRepository) private readonly fhir: FhirServerRepository,
    @Inject(TokenSealer) private readonly sealer: TokenSealer,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(RecordDocumentsRepository) private readonly documents: RecordDocumentsRepository,
    @Inject(ClientAuthService) private readonly clients: ClientAuthService,
    @Inject(SYNC_TICK_MS) private readonly tickMs: number | null,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.syncIntervalMinutes === 0) return;
    const tick = this.tickMs ?? Math.min(this.config.syncIntervalMinutes, 10) * 60_000;
    this.timer = setInterval(() => this.background(this.runDue()), tick);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running]);
  }

  /** Starts a sync without waiting for it (the caller answers at once); errors are logged, never thrown. */
  start(connectionId: string, caller: CallerIdentity): void {
    this.background(this.sync(connectionId, caller));
  }

  /** Waits for every sync started here (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Syncs every connection whose last sync is older than the interval, one after another. */
  async runDue(now = new Date()): Promise<number> {
    const due = await this.repo.due(new Date(now.getTime() - this.config.syncIntervalMinutes * 60_000), DUE_BATCH);
    for (const row of due) {
      if (this.closing) break;
      await this.sync(row.id, { userId: 'system', roles: ['system'], correlationId: randomUUID() });
    }
    return due.length;
  }

  /** One sync of one connection, now; 'busy' when another sync holds it. */
  async sync(connectionId: string, caller: CallerIdentity): Promise<SyncResult> {
    if (!(await this.repo.claim(connectionId, new Date(Date.now() - STALE_CLAIM_MS)))) return { outcome: 'busy', changed: {}, requests: 0 };
    const connection = await this.repo.findById(connectionId);
    if (!connection) return { outcome: 'busy', changed: {}, requests: 0 };
    const changed: Record<string, number> = {};
    let run: Run | undefined;
    try {
      const endpoint = this.directory.find(connection.endpointId);
      if (!endpoint) throw new SyncStopped(CONNECTIONS_MESSAGES.unknownEndpoint);
      const base = endpoint.fhirBaseUrl.replace(/\/$/, '');
      run = {
        connection,
        base,
        origin: new URL(base).origin,
        patient: this.sealer.open('patient', connection.id, connection.patientSealed),
        accessToken: this.sealer.open('access_token', connection.id, connection.accessTokenSealed),
        budget: this.config.syncMaxResources,
        capped: false,
        offOrigin: false,
        requests: 0,
      };
      const checkpoints = { ...connection.syncCheckpoints };
      const documents: string[] = [];
      for (const search of SYNC_SEARCHES) {
        const { changed: count, newest, complete } = await this.syncSearch(run, search, checkpoints[search.type], (resource) => {
          if (search.type === 'DocumentReference') documents.push(...binaryReferences(resource, base));
        });
        if (count > 0) changed[search.type] = count;
        if (complete && newest) checkpoints[search.type] = newest;
      }
      const binaries = await this.syncBinaries(run, documents);
      if (binaries > 0) changed['Binary'] = binaries;
      const counts = await this.repo.counts(connection.id);
      const handoff = await this.handOver(connection, endpoint, Object.keys(changed).length > 0, counts);
      await this.repo.finish(connection.id, {
        lastSyncAt: new Date(),
        lastSyncError: handoff.failed ? CONNECTIONS_MESSAGES.handoffFailed : run.offOrigin ? CONNECTIONS_MESSAGES.offOrigin : run.capped ? CONNECTIONS_MESSAGES.syncCapped : null,
        syncCheckpoints: checkpoints,
        syncCounts: counts,
        recordDocumentId: handoff.documentId,
        recordDocumentStale: handoff.stale,
      });
      await this.record(caller, connection, 'success');
      this.logger.log({ connectionId: connection.id, changed, requests: run.requests }, 'connection synced');
      return { outcome: 'synced', changed, requests: run.requests };
    } catch (error) {
      if (error instanceof GrantExpired) {
        await this.repo.finish(connection.id, { status: 'reconnect', lastSyncError: CONNECTIONS_MESSAGES.reauthorize });
        await this.record(caller, connection, 'denied');
        this.logger.log({ connectionId: connection.id }, 'connection sign-in expired');
        return { outcome: 'reconnect', changed, requests: run?.requests ?? 0 };
      }
      const message = error instanceof SyncStopped ? error.message : CONNECTIONS_MESSAGES.syncFailed;
      if (!(error instanceof SyncStopped)) this.logger.warn({ connectionId: connection.id, err: error instanceof Error ? error.name : 'unknown' }, 'connection sync failed');
      await this.repo.finish(connection.id, { lastSyncError: message, ...(Object.keys(changed).length > 0 ? { syncCounts: await this.repo.counts(connection.id) } : {}) });
      await this.record(caller, connection, 'failure');
      return { outcome: 'failed', changed, requests: run?.requests ?? 0 };
    }
  }

  /**
   * Hands the patient's record the connection's current resources: one FHIR Bundle (collection) as
   * a document of the patient's, named after the source and the day, through the documents service's
   * upload route (checked, audited and read into the summary and trends like any upload), then the
   * previous one of this connection deleted. Only after a sync that changed something (or when the
   * last handoff failed); the Binaries stay here.
   */
  private async handOver(connection: Connection, endpoint: DirectoryEntry, changed: boolean, counts: Record<string, number>): Promise<{ documentId: string | null; stale: boolean; failed: boolean }> {
    const due = changed || connection.recordDocumentStale || (!connection.recordDocumentId && Object.values(counts).some((n) => n > 0));
    if (!due) return { documentId: connection.recordDocumentId, stale: false, failed: false };
    if (!this.documents.configured) return { documentId: connection.recordDocumentId, stale: true, failed: false };
    try {
      const base = endpoint.fhirBaseUrl.replace(/\/$/, '');
      const source = `${endpoint.name}${endpoint.portal ? ` via ${endpoint.portal}` : ''}`;
      const entry = [];
      const binaries: ConnectionResource[] = [];
      const titles = new Map<string, string>();
      for (const row of await this.repo.all(connection.id)) {
        if (row.resourceType === 'Binary') {
          if (!row.documentId) binaries.push(row);
          continue;
        }
        const resource = JSON.parse(this.sealer.open('resource', `${connection.id}/${row.resourceType}/${row.resourceId}`, row.bodySealed)) as Record<string, unknown>;
        if (row.resourceType === 'DocumentReference') for (const [id, title] of attachmentTitles(resource, base)) titles.set(id, title);
        entry.push({ fullUrl: `${base}/${row.resourceType}/${row.resourceId}`, resource });
      }
      const now = new Date();
      await this.handOverBinaries(connection, source, binaries, titles);
      const bundle = { resourceType: 'Bundle', type: 'collection', timestamp: now.toISOString(), entry };
      const filename = `${source} — fetched ${now.toISOString().slice(0, 10)}.json`;
      const documentId = await this.documents.upload(connection.ownerId, filename, Buffer.from(JSON.stringify(bundle)), 'application/fhir+json', source);
      if (connection.recordDocumentId && connection.recordDocumentId !== documentId) {
        try {
          await this.documents.remove(connection.ownerId, connection.recordDocumentId);
        } catch (error) {
          this.logger.warn({ connectionId: connection.id, err: error instanceof Error ? error.message : 'unknown' }, 'the previous record document could not be deleted');
        }
      }
      return { documentId, stale: false, failed: false };
    } catch (error) {
      this.logger.warn({ connectionId: connection.id, err: error instanceof Error ? error.message : 'unknown' }, 'the record document could not be handed over');
      return { documentId: connection.recordDocumentId, stale: true, failed: true };
    }
  }

  /** The PDF and C-CDA Binaries not handed over yet, each as a document of its own ("<source> — <title>.pdf"). */
  private async handOverBinaries(connection: Connection, source: string, binaries: ConnectionResource[], titles: Map<string, string>): Promise<void> {
    for (const row of binaries) {
      const binary = JSON.parse(this.sealer.open('resource', `${connection.id}/Binary/${row.resourceId}`, row.bodySealed)) as Record<string, unknown>;
      const contentType = typeof binary['contentType'] === 'string' ? binary['contentType'].split(';')[0]?.trim().toLowerCase() ?? '' : '';
      if (typeof binary['data'] !== 'string' || !DOCUMENT_CONTENT_TYPES.has(contentType)) continue;
      const bytes = Buffer.from(binary['data'], 'base64');
      const title = (titles.get(row.resourceId) ?? 'document').replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ').trim().slice(0, 120) || 'document';
      try {
        const documentId = await this.documents.upload(connection.ownerId, `${source} — ${title}.${contentType === 'application/pdf' ? 'pdf' : 'xml'}`, bytes, contentType, source);
        await this.repo.setDocument(connection.id, 'Binary', row.resourceId, documentId);
      } catch (error) {
        // Refused (not a real PDF, the plan is full) or unreachable: tried again with the next sync.
        this.logger.warn({ connectionId: connection.id, err: error instanceof Error ? error.message : 'unknown' }, 'a fetched document could not be handed over');
      }
    }
  }

  /** One search, page by page: what changed, the newest lastUpdated seen, and whether every page was read. */
  private async syncSearch(run: Run, search: SyncSearch, checkpoint: string | undefined, each: (resource: Record<string, unknown>) => void): Promise<{ changed: number; newest: string | undefined; complete: boolean }> {
    const url = new URL(`${run.base}/${search.type}`);
    for (const [key, value] of Object.entries(search.params(run.patient))) url.searchParams.set(key, value);
    url.searchParams.set('_count', String(this.config.syncPageSize));
    if (checkpoint) url.searchParams.set('_lastUpdated', `gt${checkpoint}`);
    const known = await this.repo.versions(run.connection.id, search.type);
    let next: string | undefined | null = url.toString();
    let newest = checkpoint;
    let changed = 0;
    for (let page = 0; next; page += 1) {
      if (page >= this.config.syncMaxPages || run.budget <= 0) {
        run.capped = true;
        return { changed, newest, complete: false };
      }
      const bundle = await this.read(run, next);
      if (!isObject(bundle) || bundle['resourceType'] !== 'Bundle') throw new SyncStopped(CONNECTIONS_MESSAGES.syncFailed);
      const rows: ConnectionResource[] = [];
      for (const entry of arrayOf(bundle['entry'])) {
        const resource = isObject(entry) ? entry['resource'] : undefined;
        if (!isObject(resource) || resource['resourceType'] !== search.type || typeof resource['id'] !== 'string') continue;
        if (isObject(entry) && isObject(entry['search']) && entry['search']['mode'] === 'outcome') continue;
        if (run.budget <= 0) {
          run.capped = true;
          break;
        }
        run.budget -= 1;
        each(resource);
        const meta = isObject(resource['meta']) ? resource['meta'] : {};
        const versionId = typeof meta['versionId'] === 'string' ? meta['versionId'] : null;
        const lastUpdated = typeof meta['lastUpdated'] === 'string' && !Number.isNaN(Date.parse(meta['lastUpdated'])) ? new Date(meta['lastUpdated']).toISOString() : null;
        if (lastUpdated && (!newest || lastUpdated > newest)) newest = lastUpdated;
        if (known.get(resource['id']) === versionKey(versionId, lastUpdated)) continue;
        known.set(resource['id'], versionKey(versionId, lastUpdated));
        rows.push(this.row(run, search.type, resource['id'], versionId, lastUpdated, resource));
      }
      await this.repo.upsert(rows);
      changed += rows.length;
      next = this.nextLink(run, bundle);
      if (next === null) {
        // Another origin: what came from the endpoint itself is kept, the link is not followed, and
        // this type is read again from its old checkpoint next time.
        run.offOrigin = true;
        return { changed, newest, complete: false };
      }
    }
    return { changed, newest, complete: true };
  }

  /** The DocumentReferences' PDF and C-CDA Binaries not kept yet (a Binary does not change). */
  private async syncBinaries(run: Run, references: string[]): Promise<number> {
    if (references.length === 0) return 0;
    const known = await this.repo.versions(run.connection.id, 'Binary');
    let added = 0;
    for (const id of new Set(references)) {
      if (known.has(id)) continue;
      if (run.budget <= 0) {
        run.capped = true;
        break;
      }
      const binary = await this.read(run, `${run.base}/Binary/${encodeURIComponent(id)}`);
      if (!isObject(binary) || binary['resourceType'] !== 'Binary') continue;
      run.budget -= 1;
      await this.repo.upsert([this.row(run, 'Binary', id, null, null, binary)]);
      added += 1;
    }
    return added;
  }

  private row(run: Run, type: string, id: string, versionId: string | null, lastUpdated: string | null, resource: Record<string, unknown>): ConnectionResource {
    return Object.assign(new ConnectionResource(), {
      connectionId: run.connection.id,
      resourceType: type,
      resourceId: id,
      versionId,
      lastUpdated: lastUpdated ? new Date(lastUpdated) : null,
      bodySealed: this.sealer.seal('resource', `${run.connection.id}/${type}/${id}`, JSON.stringify(resource)),
      fetchedAt: new Date(),
    });
  }

  /** Bundle.link next when it stays on the endpoint's origin; null when it points anywhere else (never followed). */
  private nextLink(run: Run, bundle: Record<string, unknown>): string | undefined | null {
    const link = arrayOf(bundle['link']).find((l) => isObject(l) && l['relation'] === 'next');
    if (!isObject(link) || typeof link['url'] !== 'string') return undefined;
    let url: URL;
    try {
      url = new URL(link['url'], `${run.base}/`);
    } catch {
      return undefined;
    }
    if (url.origin !== run.origin) {
      this.logger.warn({ connectionId: run.connection.id, endpointId: run.connection.endpointId }, 'a paging link pointed at another origin and was not followed');
      return null;
    }
    return url.toString();
  }

  /** One GET: the token renewed before it expires and once on a 401, 429 and 5xx retried with backoff. */
  private async read(run: Run, url: string): Promise<unknown> {
    if (run.connection.accessExpiresAt.getTime() - REFRESH_MARGIN_MS < Date.now()) await this.refresh(run);
    let refreshed = false;
    for (let attempt = 1; ; attempt += 1) {
      let answer: FhirAnswer | undefined;
      try {
        run.requests += 1;
        answer = await this.fhir.get(url, run.accessToken);
      } catch {
        answer = undefined;
      }
      if (answer?.status === 200) return answer.body;
      if (answer?.status === 401 && !refreshed) {
        refreshed = true;
        await this.refresh(run);
        attempt -= 1;
        continue;
      }
      const retryable = !answer || answer.status === 429 || answer.status >= 500;
      if (!retryable) throw new SyncStopped(answer?.status === 401 || answer?.status === 403 ? CONNECTIONS_MESSAGES.syncRefused : CONNECTIONS_MESSAGES.syncFailed);
      if (attempt >= this.config.syncAttempts) throw new SyncStopped(answer?.status === 429 ? CONNECTIONS_MESSAGES.syncBusy : CONNECTIONS_MESSAGES.syncFailed);
      const wait = answer?.retryAfterSeconds !== undefined ? Math.min(answer.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000 : this.config.syncBackoffMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The refresh-token grant; a refusal (invalid_grant, or no refresh token) means the patient must sign in again. */
  private async refresh(run: Run): Promise<void> {
    const connection = run.connection;
    if (!connection.refreshTokenSealed) throw new GrantExpired();
    const refreshToken = this.sealer.open('refresh_token', connection.id, connection.refreshTokenSealed);
    let tokens;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const client = await this.clients.form(connection.endpointId, connection.clientId, connection.tokenEndpoint);
        tokens = await this.smart.token(connection.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: refreshToken, ...client });
        break;
      } catch (error) {
        // invalid_client: the server refuses the product's registration (a key it does not know), not the patient's grant.
        if (error instanceof SmartServerRefusal && error.error === 'invalid_client') {
          this.logger.warn({ connectionId: connection.id, endpointId: connection.endpointId }, "the token endpoint refused the product's client authentication");
          throw new SyncStopped(CONNECTIONS_MESSAGES.clientRefused);
        }
        if (error instanceof SmartServerRefusal && error.status < 500 && error.status !== 429) throw new GrantExpired();
        if (attempt >= this.config.syncAttempts) throw new SyncStopped(CONNECTIONS_MESSAGES.syncFailed);
        await new Promise((resolve) => setTimeout(resolve, this.config.syncBackoffMs * 2 ** (attempt - 1)));
      }
    }
    run.accessToken = tokens.access_token;
    connection.accessTokenSealed = this.sealer.seal('access_token', connection.id, tokens.access_token);
    if (tokens.refresh_token) connection.refreshTokenSealed = this.sealer.seal('refresh_token', connection.id, tokens.refresh_token);
    connection.accessExpiresAt = new Date(Date.now() + (tokens.expires_in ?? 3600) * 1000);
    await this.repo.saveTokens(connection.id, { accessTokenSealed: connection.accessTokenSealed, refreshTokenSealed: connection.refreshTokenSealed, accessExpiresAt: connection.accessExpiresAt });
  }

  private async record(caller: CallerIdentity, connection: Connection, outcome: 'success' | 'failure' | 'denied'): Promise<void> {
    try {
      await this.audit.record(caller, { action: 'connections.connection.sync', entityType: 'connection', entityId: connection.id, patientId: connection.ownerId, outcome, policy: caller.userId === connection.ownerId ? 'owner' : 'schedule' });
    } catch (error) {
      this.logger.error({ connectionId: connection.id, err: error instanceof Error ? error.message : 'unknown' }, 'sync audit failed');
    }
  }

  private background(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.logger.error({ err: error instanceof Error ? error.message : 'unknown' }, 'background sync failed'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }
}

/** The Binary ids a DocumentReference's PDF or C-CDA attachments point at on this server. */
function binaryReferences(resource: Record<string, unknown>, base: string): string[] {
  const ids: string[] = [];
  for (const content of arrayOf(resource['content'])) {
    const attachment = isObject(content) && isObject(content['attachment']) ? content['attachment'] : undefined;
    if (!attachment || typeof attachment['url'] !== 'string' || typeof attachment['contentType'] !== 'string') continue;
    if (!DOCUMENT_CONTENT_TYPES.has(attachment['contentType'].split(';')[0]?.trim().toLowerCase() ?? '')) continue;
    const match = /(?:^|\/)Binary\/([A-Za-z0-9\-.]{1,64})$/.exec(attachment['url']);
    if (!match?.[1]) continue;
    if (/^https?:/.test(attachment['url']) && !attachment['url'].startsWith(`${base}/`)) continue;
    ids.push(match[1]);
  }
  return ids;
}

/** Binary id → the attachment's title, for a DocumentReference's PDF and C-CDA attachments. */
function attachmentTitles(resource: Record<string, unknown>, base: string): [string, string][] {
  const ids = binaryReferences(resource, base);
  const title = arrayOf(resource['content'])
    .map((c) => (isObject(c) && isObject(c['attachment']) ? c['attachment']['title'] : undefined))
    .find((t): t is string => typeof t === 'string' && t.trim().length > 0);
  const type = isObject(resource['type']) && typeof resource['type']['text'] === 'string' ? resource['type']['text'] : undefined;
  return ids.map((id) => [id, title ?? type ?? 'document']);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
