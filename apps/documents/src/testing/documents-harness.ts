import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { STREAMS, SUBJECTS, type AuditEventDto, type CallerIdentity } from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import {
  callerHeaders,
  InProcessEventBus,
  INTERNAL_TOKEN_HEADER,
  JetStreamEventBus,
  type EventBus,
  type EventEnvelope,
} from '@medfolio/messaging';
import { createServiceHttpApp } from '@medfolio/runtime';
import { S3BlobStorage } from '@medfolio/storage';
import { eventually, IsolatedEventBus, isolatedDeadLetterPrefix, useS3TestServer, type S3TestServer } from '@medfolio/testing';
import { DocumentsAppModule } from '../app.module';
import { DocumentsConfig } from '../config';

export interface HarnessOptions {
  /** 's3': versitygw (or S3_ENDPOINT); 'filesystem': the encrypted directory store. */
  storage: 's3' | 'filesystem';
  /** 'jetstream': the machine's NATS (NATS_URL), under a prefix of this run's own; 'in-process': the embedded bus. */
  bus: 'jetstream' | 'in-process';
  /** Extra settings (variables), e.g. DOCUMENT_MAX_FILE_BYTES. */
  env?: Record<string, string>;
}

export interface UploadFile {
  name: string;
  data: Buffer;
  /** The Content-Type the "browser" declares; it must not matter. */
  type?: string;
  field?: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/**
 * The documents service as it runs in service mode, on a fresh real PostgreSQL database, a real S3
 * server (versitygw, which checks SigV4 signatures) or the encrypted filesystem store, and the
 * machine's real NATS JetStream (streams and consumers under a prefix of this run, so nothing else
 * on that server is touched) or the in-process bus. Its internal HTTP endpoint listens on loopback.
 */
export class DocumentsHarness {
  app!: NestFastifyApplication;
  config!: DocumentsConfig;
  url = '';
  readonly internalToken = randomBytes(32).toString('base64url');
  readonly urlSigningKey = randomBytes(32).toString('base64url');
  /** Every audit record the service published, in order. */
  readonly audit: AuditEventDto[] = [];
  s3?: S3TestServer;
  bus!: EventBus;
  private readonly run = randomBytes(4).toString('hex');
  private readonly database = `documents_it_${this.run}`;
  private readonly adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  private dataDir = '';
  private nats?: NatsConnection;
  private s3Client?: S3Client;

  constructor(readonly options: HarnessOptions) {}

  get prefix(): string {
    return `doc${this.run}`;
  }

  async start(): Promise<this> {
    await this.admin(`CREATE DATABASE ${this.database}`);
    this.dataDir = await mkdtemp(path.join(tmpdir(), 'documents-it-'));
    const url = new URL(this.adminUrl);
    url.pathname = `/${this.database}`;
    const env: Record<string, string> = {
      DATABASE_URL: url.toString(),
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: this.internalToken,
      MEDFOLIO_MODE: 'service',
      // Service mode starts only with its secrets given.
      STORAGE_URL_SIGNING_KEY: this.urlSigningKey,
      STORAGE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      ...this.options.env,
    };
    if (this.options.storage === 's3') {
      this.s3 = await useS3TestServer({ bucket: `documents-${this.run}` });
      Object.assign(env, {
        S3_ENDPOINT: this.s3.endpoint,
        S3_REGION: this.s3.region,
        S3_BUCKET: this.s3.bucket,
        S3_ACCESS_KEY_ID: this.s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: this.s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        // No gateway here to serve its own links: the tests follow presigned S3 URLs instead. The
        // gateway-served links are covered end to end by apps/system-e2e (services on S3).
        S3_DOWNLOADS: 'presigned',
      });
      const store = new S3BlobStorage({
        endpoint: this.s3.endpoint,
        region: this.s3.region,
        bucket: this.s3.bucket,
        accessKeyId: this.s3.accessKeyId,
        secretAccessKey: this.s3.secretAccessKey,
        forcePathStyle: true,
      });
      await store.ensureBucket();
      store.destroy();
      this.s3Client = new S3Client({
        endpoint: this.s3.endpoint,
        region: this.s3.region,
        forcePathStyle: true,
        credentials: { accessKeyId: this.s3.accessKeyId, secretAccessKey: this.s3.secretAccessKey },
      });
    }
    this.config = loadConfig(DocumentsConfig, env);
    if (this.options.bus === 'jetstream') {
      const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
      this.nats = await connect({ servers: natsUrl.split(',') });
      const inner = await JetStreamEventBus.connect({
        connection: this.nats,
        name: `documents-it-${this.run}`,
        deadLetterPrefix: isolatedDeadLetterPrefix(this.prefix),
      });
      this.bus = new IsolatedEventBus(inner, this.prefix);
    } else {
      this.bus = new InProcessEventBus();
    }
    await this.bus.ensureStream({ name: STREAMS.AUDIT.name, subjects: [...STREAMS.AUDIT.subjects] });
    await this.bus.consume(
      { stream: STREAMS.AUDIT.name, durable: 'test-audit', filterSubjects: [SUBJECTS.audit.recorded] },
      async (event: EventEnvelope) => {
        this.audit.push(event.data as AuditEventDto);
      },
    );
    this.app = await createServiceHttpApp(
      DocumentsAppModule.register({ config: this.config, eventBus: this.bus, http: true }),
    );
    this.app.useLogger(false);
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    this.url = await this.app.getUrl();
    return this;
  }

  get<T>(token: new (...args: never[]) => T): T {
    return this.app.get(token);
  }

  /** POSTs the files as multipart/form-data (field "files") to the internal endpoint, as the gateway does. */
  async upload(userId: string | undefined, files: UploadFile[], headers: Record<string, string> = {}): Promise<Answer> {
    const form = new FormData();
    for (const file of files)
      form.append(
        file.field ?? 'files',
        new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
        file.name,
      );
    const response = await fetch(`${this.url}/internal/documents`, {
      method: 'POST',
      body: form,
      headers: { ...this.internalHeaders(userId), ...headers },
    });
    return { status: response.status, body: await response.json() };
  }

  internalHeaders(userId: string | undefined): Record<string, string> {
    return { [INTERNAL_TOKEN_HEADER]: this.internalToken, ...callerHeaders(caller(userId)) };
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.app.get(DataSource).query(query, params);
  }

  /** Every object in storage, and (S3) every multipart upload still open. Temporary files of the filesystem store count too. */
  async storedObjects(): Promise<string[]> {
    if (this.s3Client && this.s3) {
      const objects = await this.s3Client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket }));
      const uploads = await this.s3Client.send(new ListMultipartUploadsCommand({ Bucket: this.s3.bucket }));
      return [
        ...(objects.Contents ?? []).map((o) => String(o.Key)),
        ...(uploads.Uploads ?? []).map((u) => `(multipart) ${u.Key}`),
      ];
    }
    return listFiles(path.join(this.dataDir, 'files'));
  }

  /** Removes every object (between tests). */
  async emptyStorage(): Promise<void> {
    if (this.s3Client && this.s3) {
      for (const key of (await this.s3Client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket }))).Contents ??
        []) {
        await this.s3Client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key.Key }));
      }
      for (const upload of (await this.s3Client.send(new ListMultipartUploadsCommand({ Bucket: this.s3.bucket })))
        .Uploads ?? []) {
        await this.s3Client.send(
          new AbortMultipartUploadCommand({ Bucket: this.s3.bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
      }
      return;
    }
    for (const entry of await readdir(path.join(this.dataDir, 'files')).catch(() => [])) {
      if (entry !== '.tmp') await rm(path.join(this.dataDir, 'files', entry), { recursive: true, force: true });
    }
  }

  /** Waits until `probe` returns something other than undefined (events are asynchronous). */
  eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    return eventually(what, probe, timeoutMs, 50);
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
    this.s3Client?.destroy();
    await this.s3?.stop();
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

export function caller(userId: string | undefined): CallerIdentity {
  return {
    ...(userId ? { userId } : {}),
    roles: ['patient'],
    correlationId: randomUUID(),
    ip: '203.0.113.7',
    userAgent: 'jest',
  };
}

export function newUserId(): string {
  return randomUUID();
}

async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir).catch(() => [] as string[])) {
      const full = path.join(dir, entry);
      if ((await stat(full)).isDirectory()) await walk(full);
      else found.push(path.relative(root, full));
    }
  };
  await walk(root);
  return found;
}
