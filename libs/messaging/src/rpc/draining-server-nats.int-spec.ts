import { randomUUID } from 'node:crypto';
import { Inject, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, ServerNats } from '@nestjs/microservices';
import type { CallerIdentity } from '@medfolio/contracts';
import { DrainingServerNats } from './draining-server-nats';
import { RpcController } from './rpc-controller';
import { createRpcClient, rpcServerStrategy } from './rpc-transport';
import type { RpcClient } from './rpc-client';

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const prefix = `drain${randomUUID().slice(0, 8)}`;
const subject = (verb: string) => `${prefix}.replica.${verb}`;
const caller: CallerIdentity = { userId: 'user-1', roles: ['patient'], correlationId: 'corr-drain', ip: '127.0.0.1' };
const INSTANCE = Symbol('INSTANCE');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@RpcController()
class ReplicaController {
  constructor(@Inject(INSTANCE) private readonly instance: string) {}

  @MessagePattern(subject('who'))
  who(): string {
    return this.instance;
  }

  @MessagePattern(subject('slow'))
  async slow(): Promise<string> {
    await sleep(800);
    return this.instance;
  }
}

/** One replica of a service (queue group `prefix`), named so that a reply says who answered. */
async function startReplica(instance: string, strategy: ServerNats = rpcServerStrategy(prefix, { natsUrl, timeoutMs: 3000 }).strategy as ServerNats): Promise<{ app: INestMicroservice; server: ServerNats }> {
  @Module({ controllers: [ReplicaController], providers: [{ provide: INSTANCE, useValue: instance }] })
  class ReplicaModule {}
  const app = await NestFactory.createMicroservice(ReplicaModule, { strategy, logger: false });
  await app.listen();
  return { app, server: strategy };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (const started = Date.now(); !check(); await sleep(10)) {
    if (Date.now() - started > 2000) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('request/reply shutdown on NATS', () => {
  let client: RpcClient;
  const running: INestMicroservice[] = [];

  beforeAll(() => {
    client = createRpcClient('drain-test', { natsUrl, timeoutMs: 3000 });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.close().catch(() => undefined)));
  });

  afterAll(async () => {
    await client.close();
  });

  it('drain: a request taken before the stop still gets its reply; requests during and after it go to the other replica', async () => {
    const a = await startReplica('a');
    running.push(a.app);
    expect(a.server).toBeInstanceOf(DrainingServerNats);
    const inFlight = client.sendUnchecked<string>(subject('slow'), {}, caller);
    await until('a to take the request', () => (a.server as DrainingServerNats).pendingRequests === 1);
    const b = await startReplica('b');
    running.push(b.app);

    const closed = a.app.close();
    await sleep(100); // the drain's UNSUB has reached the server
    const during = await Promise.all(Array.from({ length: 10 }, () => client.sendUnchecked<string>(subject('who'), {}, caller)));
    await expect(inFlight).resolves.toBe('a');
    await closed;
    expect((a.server as DrainingServerNats).pendingRequests).toBe(0);
    expect(new Set(during)).toEqual(new Set(['b']));
    await expect(client.sendUnchecked(subject('who'), {}, caller)).resolves.toBe('b');
  });

  it("without the drain (Nest's own ServerNats) the request taken is lost: the caller hears nothing until its time-out", async () => {
    const plain = await startReplica('plain', new ServerNats({ servers: natsUrl, queue: prefix }));
    const shortClient = createRpcClient('drain-test-short', { natsUrl, timeoutMs: 1500 });
    try {
      const inFlight = shortClient.sendUnchecked<string>(subject('slow'), {}, caller).catch((error: unknown) => error);
      await sleep(200);
      await plain.app.close();
      await expect(inFlight).resolves.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    } finally {
      await shortClient.close();
    }
  });

  it('a call made while no replica serves the subject waits for one that starts within the retry window', async () => {
    const started = Date.now();
    const answer = client.sendUnchecked<string>(subject('who'), {}, caller);
    await sleep(600);
    const late = await startReplica('late');
    running.push(late.app);
    await expect(answer).resolves.toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('gives up with UNAVAILABLE after the retry window, and at once when retries are off', async () => {
    let started = Date.now();
    await expect(client.sendUnchecked(subject('who'), {}, caller)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const retried = Date.now() - started;
    expect(retried).toBeGreaterThanOrEqual(2500);
    expect(retried).toBeLessThan(3500);
    started = Date.now();
    await expect(client.sendUnchecked(subject('who'), {}, caller, { retryNoResponders: false })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});
