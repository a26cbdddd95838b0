import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SUMMARY_SUBJECTS, SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { EmbeddedPostgres } from '@medfolio/persistence';
import { SummaryAppModule } from './app.module';
import { SummaryConfig } from './config';

/**
 * The whole service as it runs (the kit, migrations, the audit client, the handlers) on a real
 * PostgreSQL (DATABASE_URL, default the local test database), called over the in-process
 * request/reply transport the way the gateway calls it.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('summary service (PostgreSQL, request/reply)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  beforeAll(async () => {
    const config = Object.assign(new SummaryConfig(), { databaseUrl, databasePoolSize: 2 });
    bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({ imports: [SummaryAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    rpc = createRpcClient('summary-int-test', { timeoutMs: 5000 });
  });

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    await EmbeddedPostgres.stop();
  });

  it('is ready: database and messaging up', async () => {
    await expect(rpc.send(SUBJECTS.health('summary'), {}, caller('system'))).resolves.toMatchObject({ status: 'ok' });
  });

  it("creates items and lists only the caller's own, newest first", async () => {
    const [ada, bob] = [caller(randomUUID()), caller(randomUUID())];
    await rpc.send(SUMMARY_SUBJECTS.createItem, { label: 'first' }, ada);
    const second = await rpc.send(SUMMARY_SUBJECTS.createItem, { label: ' second ' }, ada);
    expect(second.label).toBe('second');
    await rpc.send(SUMMARY_SUBJECTS.createItem, { label: 'not yours' }, bob);
    const list = await rpc.send(SUMMARY_SUBJECTS.listItems, {}, ada);
    expect(list.map((item) => item.label)).toEqual(['second', 'first']);
  });

  it('answers VALIDATION_FAILED with the contract message for a bad payload, and stores nothing', async () => {
    const ada = caller(randomUUID());
    await expect(rpc.send(SUMMARY_SUBJECTS.createItem, { label: '' }, ada)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Label is required',
    });
    await expect(rpc.send(SUMMARY_SUBJECTS.listItems, {}, ada)).resolves.toEqual([]);
  });
});
