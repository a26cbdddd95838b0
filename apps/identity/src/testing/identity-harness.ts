import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Test, type TestingModule, type TestingModuleBuilder } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import type { CallerIdentity, NotificationTemplate } from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import { InProcessEventBus } from '@medfolio/messaging';
import { IdentityAppModule } from '../app.module';
import { IdentityConfig } from '../config';
import { NotificationsRepository } from '../repositories/notifications.repository';

export interface SentMail {
  to: string;
  template: NotificationTemplate;
  data: Record<string, string>;
}

/**
 * The identity service on a fresh real PostgreSQL database, with the notifications boundary
 * replaced by a recorder so tests can read the codes and links that would be e-mailed.
 */
export class IdentityHarness {
  readonly mail: SentMail[] = [];
  module!: TestingModule;
  private database = `identity_it_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  private dataDir = '';
  private adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  private bus = new InProcessEventBus();

  /** `configure` may replace more providers (a test clock, another service's boundary). */
  async start(env: Record<string, string> = {}, configure: (builder: TestingModuleBuilder) => TestingModuleBuilder = (b) => b): Promise<this> {
    await this.admin(`CREATE DATABASE ${this.database}`);
    this.dataDir = await mkdtemp(path.join(tmpdir(), 'identity-it-'));
    const url = new URL(this.adminUrl);
    url.pathname = `/${this.database}`;
    const config = loadConfig(IdentityConfig, { DATABASE_URL: url.toString(), DATA_DIR: this.dataDir, LOG_LEVEL: 'error', ...env });
    this.module = await configure(Test.createTestingModule({ imports: [IdentityAppModule.register({ config, eventBus: this.bus, http: false })] }))
      .overrideProvider(NotificationsRepository)
      .useValue({
        send: async (_caller: CallerIdentity, to: string, template: NotificationTemplate, data: Record<string, string>) => {
          this.mail.push({ to, template, data });
          return { id: randomUUID(), state: 'queued' };
        },
      })
      .setLogger(false as never)
      .compile();
    await this.module.init();
    return this;
  }

  get<T>(token: new (...args: never[]) => T): T {
    return this.module.get(token);
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.module.get(DataSource).query(query, params);
  }

  lastMail(to: string, template: NotificationTemplate): SentMail {
    const found = [...this.mail].reverse().find((m) => m.to.toLowerCase() === to.toLowerCase() && m.template === template);
    if (!found) throw new Error(`no ${template} mail to ${to}`);
    return found;
  }

  async stop(): Promise<void> {
    await this.module?.close();
    await this.bus.close();
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

export function caller(ip = '203.0.113.9', extra: Partial<CallerIdentity> = {}): CallerIdentity {
  return { roles: [], correlationId: randomUUID(), ip, userAgent: 'jest', ...extra };
}
