import { randomBytes, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { automock } from '@medfolio/testing';
import { MailRepository, type ClaimedEmail } from '../repositories/mail.repository';
import { MailTransport, type OutgoingMail } from '../repositories/mail-transport';
import { MailSender, type EmailEnvelope, type MailSenderOptions } from './mail-sender';
import { MessageCipher, SEAL_CONTEXT } from './message-cipher';

const cipher = new MessageCipher(randomBytes(32));
const options: MailSenderOptions = { intervalMs: 10_000, batchSize: 3, leaseMs: 60_000, retry: { baseMs: 1_000, capMs: 8_000, giveUpAfterMs: 3_600_000 } };

type Call = [string, ...unknown[]];

/** The repository mocked from its class (typed as it), answering from a queue and recording what the sender asked. */
function mockRepository() {
  const repository = automock(MailRepository);
  const calls: Call[] = [];
  const due: ClaimedEmail[] = [];
  repository.claimDue.mockImplementation(async (limit: number) => due.splice(0, limit));
  repository.markSent.mockImplementation(async (id: string) => void calls.push(['sent', id]));
  repository.markAttemptFailed.mockImplementation(async (id, outcome, error) => void calls.push([outcome.state, id, error]));
  repository.release.mockImplementation(async (ids: string[], delayMs: number) => void (ids.length && calls.push(['release', ids, delayMs])));
  const add = (to: string, attempts = 0): string => {
    const id = randomUUID();
    const envelope: EmailEnvelope = { to, subject: 'Subject', text: 'text', html: '<p>html</p>' };
    due.push({ id, template: 'welcome', sealed: cipher.seal(envelope, SEAL_CONTEXT.email(id)), attempts, createdAt: new Date() });
    return id;
  };
  return Object.assign(repository, { calls, due, add });
}

/** A transport whose outcome per recipient the test decides. */
class FakeTransport extends MailTransport {
  readonly kind = 'smtp';
  readonly sent: OutgoingMail[] = [];
  failures = new Map<string, Error>();
  beforeSend: () => Promise<void> = async () => undefined;

  async send(mail: OutgoingMail): Promise<void> {
    await this.beforeSend();
    const failure = this.failures.get(mail.to);
    if (failure) throw failure;
    this.sent.push(mail);
  }
}

const smtpError = (code: string, responseCode?: number) => Object.assign(new Error(`${code} for <someone@example.com>`), { code, responseCode });

describe('MailSender', () => {
  let repository: ReturnType<typeof mockRepository>;
  let transport: FakeTransport;
  let sender: MailSender;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    repository = mockRepository();
    transport = new FakeTransport();
    sender = new MailSender(repository, transport, cipher, options);
  });

  afterEach(() => sender.stop());

  it('delivers the claimed messages in order, decrypted, with our id, and marks each sent', async () => {
    const ids = [repository.add('a@example.com'), repository.add('b@example.com')];
    await expect(sender.sendBatch()).resolves.toEqual({ claimed: 2, unreachable: false });
    expect(repository.claimDue).toHaveBeenCalledWith(3, 60_000);
    expect(transport.sent.map((m) => [m.id, m.to, m.subject])).toEqual([
      [ids[0], 'a@example.com', 'Subject'],
      [ids[1], 'b@example.com', 'Subject'],
    ]);
    expect(repository.calls).toEqual([
      ['sent', ids[0]],
      ['sent', ids[1]],
    ]);
  });

  it('server unreachable: records the attempt and gives the rest of the batch back untried, due at the same time', async () => {
    const ids = [repository.add('a@example.com', 2), repository.add('b@example.com'), repository.add('c@example.com')];
    transport.failures.set('a@example.com', smtpError('ECONNECTION'));
    await expect(sender.sendBatch()).resolves.toEqual({ claimed: 3, unreachable: true });
    expect(transport.sent).toEqual([]);
    const [failed, released] = repository.calls;
    expect(failed).toEqual(['retrying', ids[0], 'ECONNECTION: ECONNECTION for <<address>>']);
    const delay = (repository.markAttemptFailed.mock.calls[0]![1] as unknown as { delayMs: number }).delayMs;
    expect(delay).toBeGreaterThanOrEqual(4_000); // third attempt: 1 s × 2²
    expect(delay).toBeLessThanOrEqual(4_800);
    expect(released).toEqual(['release', [ids[1], ids[2]], delay]);
  });

  it('a refused recipient fails for good and the batch goes on', async () => {
    const ids = [repository.add('nobody@example.com'), repository.add('b@example.com')];
    transport.failures.set('nobody@example.com', smtpError('EENVELOPE', 550));
    await expect(sender.sendBatch()).resolves.toEqual({ claimed: 2, unreachable: false });
    expect(repository.calls).toEqual([
      ['failed', ids[0], 'EENVELOPE 550: EENVELOPE for <<address>>'],
      ['sent', ids[1]],
    ]);
  });

  it('a temporary refusal (4xx) is retried, and the batch goes on', async () => {
    const ids = [repository.add('busy@example.com'), repository.add('b@example.com')];
    transport.failures.set('busy@example.com', smtpError('EENVELOPE', 451));
    await sender.sendBatch();
    expect(repository.calls.map((c) => c.slice(0, 2))).toEqual([
      ['retrying', ids[0]],
      ['sent', ids[1]],
    ]);
  });

  it('a row that does not decrypt fails without being sent', async () => {
    const id = repository.add('a@example.com');
    repository.due[0]!.sealed[30]! ^= 0xff;
    await sender.sendBatch();
    expect(transport.sent).toEqual([]);
    expect(repository.calls).toEqual([['failed', id, 'The stored message cannot be decrypted']]);
  });

  it('stopping mid-batch finishes the message being sent and gives the rest back at once', async () => {
    const ids = [repository.add('a@example.com'), repository.add('b@example.com'), repository.add('c@example.com')];
    let release!: () => void;
    const firstSendStarted = new Promise<void>((started) => {
      transport.beforeSend = () => {
        started();
        return new Promise<void>((resolve) => (release = resolve));
      };
    });
    sender.start();
    await firstSendStarted;
    const stopped = sender.stop();
    release();
    await stopped;
    expect(transport.sent.map((m) => m.id)).toEqual([ids[0]]);
    expect(repository.calls).toEqual([
      ['sent', ids[0]],
      ['release', [ids[1], ids[2]], 0],
    ]);
  });

  it('once started, drains full batches until caught up; a kick starts a pass', async () => {
    for (let i = 0; i < 7; i++) repository.add(`r${i}@example.com`);
    sender.start();
    await waitFor(() => transport.sent.length === 7);
    expect(repository.claimDue).toHaveBeenCalledTimes(3); // 3 + 3 + 1
    repository.add('late@example.com');
    sender.kick();
    await waitFor(() => transport.sent.length === 8);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
