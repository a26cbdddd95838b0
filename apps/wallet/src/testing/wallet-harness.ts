import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '@medfolio/config';
import {
  IDENTITY_SUBJECTS,
  SHARING_SUBJECTS,
  STREAMS,
  SUBJECTS,
  type AuditEventDto,
  type CallerIdentity,
  type Profile,
  type ShareLinkChangedEvent,
  type ShareLinkItem,
} from '@medfolio/contracts';
import {
  callerFromHeaders,
  createRpcClient,
  INTERNAL_TOKEN_HEADER,
  InProcessBroker,
  InProcessServer,
  JetStreamEventBus,
  type EventBus,
  type EventEnvelope,
  type InProcessContext,
  type RpcClient,
} from '@medfolio/messaging';
import { createServiceHttpApp } from '@medfolio/runtime';
import { eventually, IsolatedEventBus, isolatedDeadLetterPrefix } from '@medfolio/testing';
import { WalletAppModule } from '../app.module';
import { WalletConfig } from '../config';
import { SigningMaterialRepository } from '../repositories/signing-material.repository';
import { passImages } from '../services/pass-signer';

/**
 * A stand-in for the summary service's share links (the contract in libs/contracts sharing.ts):
 * `ensure` answers the owner's active wallet link, making one when there is none; `revoke` revokes
 * it and publishes summary.share-link.changed.v1 as the summary service does. The real service is
 * exercised end to end by apps/system-e2e.
 */
export class SharingStandIn {
  readonly links = new Map<string, ShareLinkItem>();
  calls = 0;

  constructor(
    private readonly bus: EventBus,
    private readonly publicBaseUrl: string,
  ) {}

  ensure(ownerId: string): ShareLinkItem {
    this.calls += 1;
    const current = this.links.get(ownerId);
    if (current && !current.revoked_at) return current;
    const shareId = randomBytes(16).toString('base64url');
    const link: ShareLinkItem = {
      id: randomUUID(),
      share_id: shareId,
      url: `${this.publicBaseUrl}/summary/${shareId}`,
      qr_text: `${this.publicBaseUrl}/summary/${shareId}`,
      label: 'Wallet card',
      purpose: 'wallet',
      version: 1,
      created_at: new Date().toISOString(),
      expires_at: null,
      revoked_at: null,
      has_passcode: false,
      locked: false,
      notify_on_view: false,
      providers_may_see_documents: false,
      view_count: 0,
      last_viewed_at: null,
      shl: null,
    };
    this.links.set(ownerId, link);
    return link;
  }

  async revoke(ownerId: string): Promise<ShareLinkItem> {
    const link = this.links.get(ownerId)!;
    const revoked = { ...link, version: link.version + 1, revoked_at: new Date().toISOString() };
    this.links.set(ownerId, revoked);
    const event: ShareLinkChangedEvent = { link_id: link.id, owner_id: ownerId, purpose: 'wallet', state: 'revoked', version: revoked.version, changed_at: revoked.revoked_at };
    await this.bus.publish(SHARING_SUBJECTS.changed, event, { msgId: randomUUID() });
    return revoked;
  }
}

/**
 * The wallet service as it runs in service mode (HTTP for its signed files, request/reply
 * in-process), on a fresh real PostgreSQL database and the machine's real NATS JetStream under a
 * prefix of this run's own. The summary service's `ensure` and identity's profile are answered by
 * in-process responders with their contracts' shapes.
 */
export class WalletHarness {
  app!: NestFastifyApplication;
  config!: WalletConfig;
  bus!: EventBus;
  rpc!: RpcClient;
  sharing!: SharingStandIn;
  baseUrl = '';
  readonly firstNames = new Map<string, string>();
  readonly audit: AuditEventDto[] = [];
  readonly internalToken = randomBytes(32).toString('base64url');
  readonly urlSigningKey = randomBytes(32).toString('base64url');
  readonly publicBaseUrl = 'https://medfolio.test';
  private readonly run = randomBytes(4).toString('hex');
  private readonly database = `wallet_it_${this.run}`;
  private readonly adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  dataDir = '';
  private nats?: NatsConnection;

  get prefix(): string {
    return `wal${this.run}`;
  }

  async start(extraEnv: Record<string, string> = {}): Promise<this> {
    await this.admin(`CREATE DATABASE ${this.database}`);
    this.dataDir = await mkdtemp(path.join(tmpdir(), 'wallet-it-'));
    const url = new URL(this.adminUrl);
    url.pathname = `/${this.database}`;
    const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
    this.nats = await connect({ servers: natsUrl.split(',') });
    const inner = await JetStreamEventBus.connect({ connection: this.nats, name: `wallet-it-${this.run}`, deadLetterPrefix: isolatedDeadLetterPrefix(this.prefix) });
    this.bus = new IsolatedEventBus(inner, this.prefix);
    for (const stream of [STREAMS.AUDIT, STREAMS.SUMMARY]) await this.bus.ensureStream({ name: stream.name, subjects: [...stream.subjects] });
    await this.bus.consume({ stream: STREAMS.AUDIT.name, durable: 'test-audit', filterSubjects: [SUBJECTS.audit.recorded] }, async (event: EventEnvelope) => {
      this.audit.push(event.data as AuditEventDto);
    });
    this.sharing = new SharingStandIn(this.bus, this.publicBaseUrl);
    const ownerOf = (context: InProcessContext): string => callerFromHeaders((name) => context.getHeaders().get(name)).userId ?? '';
    InProcessBroker.register(SHARING_SUBJECTS.ensure, async (_data, context) => this.sharing.ensure(ownerOf(context)));
    InProcessBroker.register(IDENTITY_SUBJECTS.getProfile, async (_data, context) => {
      const id = ownerOf(context);
      const profile: Profile = { id, first_name: this.firstNames.get(id) ?? '', last_name: '', email: `${id}@example.test`, phone: '', profile_picture: null, date_of_birth: null, email_verified: true, roles: ['patient'], provider: null, gender: null };
      return profile;
    });
    this.config = loadConfig(WalletConfig, {
      DATABASE_URL: url.toString(),
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: this.internalToken,
      MEDFOLIO_MODE: 'service',
      // Service mode starts only with its secrets given.
      STORAGE_URL_SIGNING_KEY: this.urlSigningKey,
      STORAGE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      PUBLIC_BASE_URL: this.publicBaseUrl,
      ...extraEnv,
    });
    this.app = await createServiceHttpApp(WalletAppModule.register({ config: this.config, eventBus: this.bus, http: true }));
    this.app.useLogger(false);
    this.app.connectMicroservice({ strategy: new InProcessServer() }, { inheritAppConfig: true });
    await this.app.startAllMicroservices();
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    this.baseUrl = `http://127.0.0.1:${(this.app.getHttpServer().address() as AddressInfo).port}`;
    this.rpc = createRpcClient('wallet-it', { timeoutMs: 60_000 });
    // The development chain (two RSA keys) and the images, made once, before the first test's clock.
    await Promise.all([this.app.get(SigningMaterialRepository).get(), passImages()]);
    return this;
  }

  owner(userId: string): CallerIdentity {
    return { userId, roles: ['patient'], correlationId: randomUUID() };
  }

  device(): CallerIdentity {
    return { roles: [], correlationId: randomUUID() };
  }

  /** A signed link the service issued, fetched as the gateway does (GET /internal/files/..., internal token). */
  async download(url: string): Promise<Response> {
    return fetch(`${this.baseUrl}${url.replace('/api/files/', '/internal/files/')}`, { headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken } });
  }

  /** The development CA the service made in DATA_DIR (stands in for Apple's WWDR certificate). */
  developmentCa(): Promise<string> {
    return readFile(path.join(this.dataDir, 'wallet', 'development-wwdr-ca.pem'), 'utf8');
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.app.get(DataSource).query(query, params);
  }

  /** Waits until `probe` returns something other than undefined (events are asynchronous). */
  eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    return eventually(what, probe, timeoutMs);
  }

  async stop(): Promise<void> {
    InProcessBroker.unregister(SHARING_SUBJECTS.ensure);
    InProcessBroker.unregister(IDENTITY_SUBJECTS.getProfile);
    await this.rpc?.close();
    await this.app?.close();
    await this.bus?.close();
    if (this.nats) {
      const jsm = await jetstreamManager(this.nats);
      for await (const info of jsm.streams.list()) {
        if (info.config.name.startsWith(`${this.prefix.toUpperCase()}_`)) await jsm.streams.delete(info.config.name);
      }
      await this.nats.close();
    }
    await this.admin(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`);
    await rm(this.dataDir, { recursive: true, force: true });
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
