import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Global, Module, type INestMicroservice, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import {
  BILLING_SUBJECTS,
  DomainError,
  IDENTITY_SUBJECTS,
  NOTIFICATIONS_SUBJECTS,
  type MembershipView,
  type PlanId,
  STREAMS,
  type CallerIdentity,
  type SendEmailDto,
} from '@medfolio/contracts';
import { Caller, createRpcClient, EVENT_BUS, EventsModule, Handles, InProcessEventBus, InProcessServer, RPC_CLIENT, RpcController, type RpcClient } from '@medfolio/messaging';
import { migrate, serviceDataSourceOptions } from '@medfolio/persistence';
import { NOTIFICATIONS_CONTROLLERS, NOTIFICATIONS_ENTITIES, notificationsProviders } from './app.module';
import { NotificationsConfig } from './config';
import { NOTIFICATIONS_MIGRATIONS } from './migrations';
import { MailRepository } from './repositories/mail.repository';
import { MailSender } from './services/mail-sender';
import { freePort, startSmtpSink, type ReceivedMail, type SmtpSink } from '@medfolio/testing';

/**
 * The notifications service end to end, as it runs: its controllers behind the in-process
 * request/reply transport, the in-process event bus, real PostgreSQL (a schema of its own, dropped
 * after) and a real SMTP server (the `smtp-server` package) receiving what the sender delivers.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `notifications_it_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const caller: CallerIdentity = { roles: ['system'], correlationId: 'int-test' };
const SUPPORT = 'support@medfolio.test';

/** Everything any Nest logger printed during the run: checked for secrets at the end. */
const logged: string[] = [];
const captureLogger: LoggerService = {
  log: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
  error: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
  warn: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
  debug: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
  verbose: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
};

/**
 * Billing's answer to billing.membership.get (the sender's plan), stood in for on the in-process
 * transport: users named "<plan>-..." are on that plan; "down-..." gets no answer (billing down).
 */
@RpcController()
class BillingStandIn {
  @Handles(BILLING_SUBJECTS.membership)
  membership(@Caller() who: CallerIdentity): Promise<MembershipView> {
    const plan = (who.userId ?? '').split('-')[0] ?? '';
    if (plan === 'down') return Promise.reject(new DomainError('UNAVAILABLE', 'billing is down'));
    return Promise.resolve({ plan: plan as PlanId } as MembershipView);
  }
}

interface Service {
  app: INestMicroservice;
  rpc: RpcClient;
  bus: InProcessEventBus;
  sender: MailSender;
  close(): Promise<void>;
}

describe('notifications (Postgres + SMTP server)', () => {
  let dataSource: DataSource;
  let dataDir: string;
  let service: Service | undefined;
  let sink: SmtpSink | undefined;
  /** Secrets sent during the run, none of which may appear in a row or a log line. */
  const secrets: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'notifications-it-'));
    dataSource = await new DataSource(
      serviceDataSourceOptions({ schema, url: databaseUrl, entities: NOTIFICATIONS_ENTITIES, migrations: NOTIFICATIONS_MIGRATIONS, poolSize: 5 }),
    ).initialize();
    await migrate(dataSource);
  });

  afterAll(async () => {
    await service?.close();
    await sink?.close();
    await dataSource?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await service?.close();
    service = undefined;
    await sink?.close();
    sink = undefined;
  });

  /** The service as the app module wires it, with a fast sender (retries after 100, 200, 400 ms). */
  async function startService(smtpUrl?: string): Promise<Service> {
    const config = Object.assign(new NotificationsConfig(), {
      dataDir,
      smtpUrl,
      supportEmail: SUPPORT,
      publicBaseUrl: 'https://medfolio.test/',
    });
    const bus = new InProcessEventBus();
    // In the app, the service kit ensures the streams the service consumes (streams: ['IDENTITY']).
    await bus.ensureStream({ name: STREAMS.IDENTITY.name, subjects: [...STREAMS.IDENTITY.subjects] });
    @Global()
    @Module({
      providers: [
        { provide: DataSource, useValue: dataSource },
        { provide: EVENT_BUS, useValue: bus },
        // The service's own client (it asks billing for a contact sender's plan), on the in-process transport.
        { provide: RPC_CLIENT, useFactory: () => createRpcClient('notifications', { timeoutMs: 2000 }) },
      ],
      exports: [DataSource, EVENT_BUS, RPC_CLIENT],
    })
    class PlumbingModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [PlumbingModule, EventsModule.forHandlers()],
      controllers: [...NOTIFICATIONS_CONTROLLERS, BillingStandIn],
      providers: notificationsProviders(config, { intervalMs: 50, retry: { baseMs: 100, capMs: 400 } }),
    }).compile();
    const app = moduleRef.createNestMicroservice({ strategy: new InProcessServer() });
    app.useLogger(captureLogger);
    await app.listen();
    const rpc = createRpcClient('int-test', { timeoutMs: 5000 });
    return {
      app,
      rpc,
      bus,
      sender: app.get(MailSender),
      close: async () => {
        await rpc.close();
        await app.close();
        await bus.close();
      },
    };
  }

  const send = (request: SendEmailDto) => service!.rpc.send(NOTIFICATIONS_SUBJECTS.sendEmail, request, caller);

  function code(): string {
    const value = String(100_000 + Math.floor(Math.random() * 900_000));
    secrets.push(value);
    return value;
  }

  function address(name: string): string {
    const value = `${name}.${randomBytes(3).toString('hex')}@example.com`;
    secrets.push(value);
    return value;
  }

  async function rowOf(id: string): Promise<{ state: string; attempts: number; last_error: string | null; json: string; sealed: Buffer }> {
    const [row] = await dataSource.query(`SELECT state, attempts, last_error, sealed, row_to_json(e)::text AS json FROM "${schema}".email_messages e WHERE id = $1`, [id]);
    return row;
  }

  async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  const receivedWith = (id: string) => sink!.received.filter((m) => m.messageId.startsWith(`<${id}@`));
  const delivered = async (id: string) => (await rowOf(id)).state === 'sent';

  describe('with an SMTP server', () => {
    beforeEach(async () => {
      sink = await startSmtpSink({ auth: { user: 'medfolio', pass: 'relay-pass' }, refuse: (a) => a.startsWith('bounce.') });
      service = await startService(`smtp://medfolio:relay-pass@127.0.0.1:${sink.port}`);
    });

    it('delivers a verification code: recipient, From, subject, and the code in both parts', async () => {
      const to = address('ada');
      const secret = code();
      const reply = await send({ to, template: 'verification-code', data: { first_name: 'Ada', code: secret } });
      expect(reply).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), state: 'queued' });

      await waitFor(() => receivedWith(reply.id).length === 1, 'the e-mail');
      const [mail] = receivedWith(reply.id) as [ReceivedMail];
      expect(mail.recipients).toEqual([to]);
      expect(mail.headers['to']).toBe(to);
      expect(mail.headers['from']).toBe('Medfolio <no-reply@medfolio.local>');
      expect(mail.subject).toBe('Your Medfolio verification code');
      expect(mail.text).toContain(secret);
      expect(mail.html).toContain(`>${secret}</span>`);
      await waitFor(() => delivered(reply.id), 'the sent state');
      expect(await rowOf(reply.id)).toMatchObject({ state: 'sent', attempts: 1, last_error: null });
    });

    it('delivers a password reset with the link inside, and stores no secret in plain text', async () => {
      const to = address('grace');
      const token = `tok-${randomBytes(12).toString('hex')}`;
      secrets.push(token);
      const resetUrl = `https://medfolio.test/reset-password/${encodeURIComponent(to)}/${token}`;
      const { id } = await send({ to, template: 'password-reset', data: { first_name: 'Grace', reset_url: resetUrl }, idempotencyKey: `reset:${to}` });

      await waitFor(() => receivedWith(id).length === 1, 'the e-mail');
      const [mail] = receivedWith(id) as [ReceivedMail];
      expect(mail.subject).toBe('Reset your Medfolio password');
      expect(mail.text).toContain(resetUrl);
      expect(mail.html).toContain(`href="${resetUrl}"`);

      const row = await rowOf(id);
      for (const secret of [token, to, 'Grace', 'Reset your', `reset:${to}`]) {
        expect(row.json).not.toContain(secret);
        expect(row.sealed.toString('latin1')).not.toContain(secret);
      }
    });

    it('one idempotency key, one message', async () => {
      const to = address('once');
      const request: SendEmailDto = { to, template: 'verification-code', data: { first_name: 'A', code: code() }, idempotencyKey: `verify:${to}:1` };
      const [first, second] = await Promise.all([send(request), send(request)]);
      const third = await send(request);
      expect(second.id).toBe(first.id);
      expect(third.id).toBe(first.id);
      await waitFor(() => delivered(first.id), 'delivery');
      await sleep(200);
      expect(receivedWith(first.id)).toHaveLength(1);
      expect(sink!.received.filter((m) => m.recipients.includes(to))).toHaveLength(1);
    });

    it('refuses an incomplete request with a message naming the field', async () => {
      await expect(send({ to: address('x'), template: 'verification-code', data: { first_name: 'A' } })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'data.code is required for the verification-code template',
      });
      await expect(send({ to: 'not-an-address', template: 'welcome', data: { first_name: 'A' } })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'to must be an e-mail address',
      });
    });

    it('a recipient the server refuses (550) is failed for good after one attempt', async () => {
      const to = address('bounce');
      const { id } = await send({ to, template: 'welcome', data: { first_name: 'B' } });
      await waitFor(async () => (await rowOf(id)).state === 'failed', 'the failed state');
      const row = await rowOf(id);
      expect(row).toMatchObject({ state: 'failed', attempts: 1 });
      expect(row.last_error).toMatch(/^EENVELOPE 550: /);
      expect(row.last_error).not.toContain(to);
      expect(receivedWith(id)).toEqual([]);
    });

    it('the contact form: stored, e-mailed to support with Reply-To the sender, exact validation messages', async () => {
      const email = address('lovelace');
      const message = `Please call me back <b>soon</b>. ${randomBytes(4).toString('hex')}`;
      secrets.push(message);
      const reply = await service!.rpc.send(NOTIFICATIONS_SUBJECTS.submitContact, { firstname: ' Ada ', lastname: 'Lovelace', email, message }, caller);
      expect(reply).toEqual({ message: 'Thank you! Your message has been sent.', priority: false, answer_within_hours: 48 });

      await waitFor(() => sink!.received.some((m) => m.subject === 'New contact message from Ada Lovelace' && m.text.includes(message)), 'the copy');
      const copy = sink!.received.find((m) => m.text.includes(message))!;
      expect(copy.recipients).toEqual([SUPPORT]);
      expect(copy.headers['reply-to']).toBe(email);
      expect(copy.html).toContain('Please call me back &lt;b&gt;soon&lt;/b&gt;.');
      const [stored] = await dataSource.query(`SELECT row_to_json(c)::text AS json, email_message_id FROM "${schema}".contact_messages c`);
      expect(stored.json).not.toContain(email);
      expect(stored.json).not.toContain('Lovelace');
      // The server has the mail; the sender records 'sent' right after its reply arrives.
      await waitFor(async () => (await rowOf(stored.email_message_id))?.state === 'sent', 'the sent state');

      await expect(
        service!.rpc.send(NOTIFICATIONS_SUBJECTS.submitContact, { firstname: 'Ada', lastname: 'Lovelace', email: 'nope', message: 'x' }, caller),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid email' });
      await expect(
        service!.rpc.send(NOTIFICATIONS_SUBJECTS.submitContact, { firstname: 'Ada', lastname: 'Lovelace', email, message: 'x'.repeat(201) }, caller),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Limit exceeded (200 characters)' });
    });

    it('priority support: a signed-in Plus or Family sender is marked priority (subject, row) and told 4 hours; others 48', async () => {
      const send = (userId: string | undefined, lastname: string) =>
        service!.rpc.send(
          NOTIFICATIONS_SUBJECTS.submitContact,
          // A `priority` field in the body marks nothing.
          { firstname: 'Grace', lastname, email: address(lastname.toLowerCase()), message: `About my plan ${lastname}`, priority: 'yes' } as never,
          { ...caller, roles: userId ? ['patient'] : [], ...(userId ? { userId } : {}) },
        );
      expect(await send('plus-user-1', 'Plus')).toEqual({
        message: 'Thank you! Your message has been sent. As a Plus member you have priority support: we answer within 4 hours.',
        priority: true,
        answer_within_hours: 4,
      });
      expect(await send('pro-user-2', 'Family')).toMatchObject({ priority: true, answer_within_hours: 4 });
      expect(await send('basic-user-3', 'Basic')).toEqual({ message: 'Thank you! Your message has been sent.', priority: false, answer_within_hours: 48 });
      expect(await send(undefined, 'Anonymous')).toMatchObject({ priority: false, answer_within_hours: 48 });
      // Billing not answering: the message still goes, as standard.
      expect(await send('down-user-4', 'Down')).toMatchObject({ priority: false, answer_within_hours: 48 });

      await waitFor(() => sink!.received.filter((m) => m.subject.includes('New contact message from Grace')).length === 5, 'the five copies');
      const subjects = sink!.received.map((m) => m.subject).filter((x) => x.includes('Grace')).sort();
      expect(subjects).toEqual([
        'New contact message from Grace Anonymous',
        'New contact message from Grace Basic',
        'New contact message from Grace Down',
        '[PRIORITY] New contact message from Grace Family',
        '[PRIORITY] New contact message from Grace Plus',
      ]);
      const plus = sink!.received.find((m) => m.subject.endsWith('Grace Plus'))!;
      expect(plus.text).toContain('Priority support: Plus plan, answer within 4 hours');
      const rows: { priority: boolean; account_id: string | null }[] = await dataSource.query(
        `SELECT priority, account_id FROM "${schema}".contact_messages WHERE account_id IS NOT NULL OR NOT priority ORDER BY account_id NULLS FIRST`,
      );
      expect(rows.filter((r) => r.priority).map((r) => r.account_id).sort()).toEqual(['plus-user-1', 'pro-user-2']);
      expect(rows.filter((r) => r.account_id === 'basic-user-3' || r.account_id === 'down-user-4').every((r) => !r.priority)).toBe(true);
    });

    it('identity.user.verified.v1 queues one welcome e-mail per user, however often it arrives', async () => {
      const to = address('welcome');
      const event = { user_id: randomUUID(), email: to, first_name: 'Wendy' };
      await service!.bus.publish(IDENTITY_SUBJECTS.verified, event);
      await service!.bus.publish(IDENTITY_SUBJECTS.verified, event); // another event id, same user
      await waitFor(() => sink!.received.some((m) => m.recipients.includes(to)), 'the welcome e-mail');
      await sleep(300);
      const welcomes = sink!.received.filter((m) => m.recipients.includes(to));
      expect(welcomes).toHaveLength(1);
      expect(welcomes[0]).toMatchObject({ subject: 'Welcome to Medfolio' });
      expect(welcomes[0]!.text).toContain('Hello Wendy,');
      expect(welcomes[0]!.html).toContain('href="https://medfolio.test/"');
    });

    it('the dev mailbox does not exist when SMTP_URL is set', async () => {
      await expect(service!.rpc.send(NOTIFICATIONS_SUBJECTS.listDevMail, {}, caller)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('a message claimed by a sender that died is delivered once its lease runs out', async () => {
      await service!.sender.stop();
      const { id } = await send({ to: address('orphan'), template: 'welcome', data: { first_name: 'O' } });
      // The dead sender: claimed the row (state 'sending', 1 s lease) and never came back.
      await expect(new MailRepository(dataSource).claimDue(10, 1000)).resolves.toEqual([expect.objectContaining({ id })]);
      service!.sender.start();
      await sleep(150);
      expect(receivedWith(id)).toEqual([]);
      expect((await rowOf(id)).state).toBe('sending');
      await waitFor(() => delivered(id), 'delivery after the lease');
      expect(receivedWith(id)).toHaveLength(1);
      expect(await rowOf(id)).toMatchObject({ attempts: 1 });
    });
  });

  describe('SMTP server unreachable at first', () => {
    it('keeps the messages (retrying), delivers each exactly once when the server comes up, across a restart of the sender', async () => {
      const port = await freePort();
      service = await startService(`smtp://127.0.0.1:${port}`);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await send({ to: address(`later${i}`), template: 'verification-code', data: { first_name: 'L', code: code() } })).id);

      // Several passes fail: the first due message records the attempt, the others wait with it.
      await waitFor(async () => (await rowOf(ids[0]!)).attempts >= 2, 'two failed attempts', 5000);
      // None delivered. A row may be caught mid-attempt ('sending') by the next pass: under CI's load
      // that happened between the wait above and these reads.
      for (const id of ids) expect(['queued', 'retrying', 'sending']).toContain((await rowOf(id)).state);
      await waitFor(async () => (await rowOf(ids[0]!)).state === 'retrying', 'the first message back to retrying', 5000);
      const failed = await rowOf(ids[0]!);
      expect(failed.last_error).toMatch(/ECONNREFUSED/);

      // The process goes away while it keeps failing, and comes back after the SMTP server is up.
      await service.close();
      service = undefined;
      sink = await startSmtpSink({ port });
      service = await startService(`smtp://127.0.0.1:${port}`);
      for (const id of ids) await waitFor(() => delivered(id), `delivery of ${id}`);
      await sleep(300);
      for (const id of ids) expect(receivedWith(id)).toHaveLength(1);
      expect(sink.received).toHaveLength(ids.length);
    });

    it('a sender stopped mid-batch gives its rows back: a fresh one delivers them all, once each', async () => {
      sink = await startSmtpSink({ delayMs: 80 });
      const smtpUrl = `smtp://127.0.0.1:${sink.port}`;
      service = await startService(smtpUrl);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await send({ to: address(`batch${i}`), template: 'welcome', data: { first_name: 'B' } })).id);
      await waitFor(() => sink!.received.length >= 1, 'the first delivery');
      await service.close(); // stops the sender mid-batch
      service = undefined;
      const states: { state: string }[] = await dataSource.query(`SELECT state FROM "${schema}".email_messages WHERE id = ANY($1::uuid[])`, [ids]);
      expect(states.filter((s) => s.state === 'sending')).toEqual([]);
      expect(states.filter((s) => s.state === 'sent').length).toBeLessThan(ids.length);

      service = await startService(smtpUrl);
      for (const id of ids) await waitFor(() => delivered(id), `delivery of ${id}`);
      await sleep(200);
      for (const id of ids) expect(receivedWith(id)).toHaveLength(1);
    });
  });

  describe('without SMTP_URL (embedded dev mailbox)', () => {
    it('keeps sent mail readable, newest first', async () => {
      await dataSource.query(`TRUNCATE "${schema}".contact_messages, "${schema}".email_messages`);
      service = await startService(undefined);
      const first = await send({ to: 'first@example.com', template: 'welcome', data: { first_name: 'First' } });
      await waitFor(() => delivered(first.id), 'the first message');
      await sleep(20);
      const second = await send({ to: 'second@example.com', template: 'verification-code', data: { first_name: 'Second', code: '4821' } });
      await waitFor(() => delivered(second.id), 'the second message');

      const mailbox = await service.rpc.send(NOTIFICATIONS_SUBJECTS.listDevMail, {}, caller);
      expect(mailbox.map((m) => [m.to, m.subject])).toEqual([
        ['second@example.com', 'Your Medfolio verification code'],
        ['first@example.com', 'Welcome to Medfolio'],
      ]);
      expect(mailbox[0]!.text).toContain('4821');
      expect(mailbox[0]!.html).toContain('>4821</span>');
      expect(Date.parse(mailbox[0]!.sent_at)).toBeGreaterThanOrEqual(Date.parse(mailbox[1]!.sent_at));
      expect(new Date(mailbox[0]!.sent_at).toISOString()).toBe(mailbox[0]!.sent_at);
    });

    it('housekeeping erases delivered bodies older than the retention (the row keeps its idempotency key), then deletes the emptied rows; newer and queued mail stays', async () => {
      await dataSource.query(`TRUNCATE "${schema}".contact_messages, "${schema}".email_messages`);
      service = await startService(undefined);
      const old = await send({ to: 'old@example.com', template: 'welcome', data: { first_name: 'Old' }, idempotencyKey: 'welcome:old' });
      const recent = await send({ to: 'recent@example.com', template: 'welcome', data: { first_name: 'Recent' } });
      await waitFor(() => delivered(old.id), 'the old message');
      await waitFor(() => delivered(recent.id), 'the recent message');
      await service.close();
      service = undefined;
      const DAY = 24 * 3_600_000;
      await dataSource.query(`UPDATE "${schema}".email_messages SET updated_at = now() - interval '8 days' WHERE id = $1`, [old.id]);
      const queued = randomUUID();
      await dataSource.query(
        `INSERT INTO "${schema}".email_messages (id, template, state, sealed, next_attempt_at, created_at, updated_at)
         VALUES ($1, 'welcome', 'queued', '\\x01'::bytea, now() + interval '1 day', now() - interval '9 days', now() - interval '9 days')`,
        [queued],
      );
      const repository = new MailRepository(dataSource);
      const bodies = async () =>
        Object.fromEntries(
          ((await dataSource.query(`SELECT id, octet_length(sealed) AS n FROM "${schema}".email_messages`)) as { id: string; n: number }[]).map((r) => [r.id, r.n > 0]),
        );

      await expect(repository.eraseFinishedBodies(new Date(Date.now() - 7 * DAY))).resolves.toBe(1);
      expect(await bodies()).toEqual({ [old.id]: false, [recent.id]: true, [queued]: true });
      expect((await repository.listSent(10)).map((m) => m.id)).toEqual([recent.id]);
      // The same idempotency key still names the (emptied) message: nothing is sent twice.
      service = await startService(undefined);
      const again = await send({ to: 'old@example.com', template: 'welcome', data: { first_name: 'Old' }, idempotencyKey: 'welcome:old' });
      expect(again.id).toBe(old.id);
      await service.close();
      service = undefined;

      await expect(repository.deleteErased(new Date(Date.now() - 30 * DAY))).resolves.toBe(0);
      await expect(repository.deleteErased(new Date(Date.now() - 7 * DAY))).resolves.toBe(1);
      expect(await bodies()).toEqual({ [recent.id]: true, [queued]: true });
    });
  });

  it('logged nothing secret: no code, link token, address or contact text', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.some((line) => line.includes('e-mail sent'))).toBe(true);
    for (const secret of secrets) expect(logged.filter((line) => line.includes(secret))).toEqual([]);
  });
});
