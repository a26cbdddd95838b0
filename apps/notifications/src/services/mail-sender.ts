import { PollingLoop } from '@medfolio/messaging/outbox';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { MailRepository, type ClaimedEmail } from '../repositories/mail.repository';
import { MailTransport, type OutgoingMail } from '../repositories/mail-transport';
import { describeDeliveryError, isPermanentRefusal, isServerUnreachable } from './delivery-errors';
import { MessageCipher, SEAL_CONTEXT } from './message-cipher';
import { afterFailure, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

/** What a sealed email_messages row holds. */
export type EmailEnvelope = Omit<OutgoingMail, 'id'>;

export interface MailSenderOptions {
  /** How often to look for due messages when nobody kicks. */
  intervalMs: number;
  /** Messages claimed at a time. */
  batchSize: number;
  /** How long a claim lasts: a sender that died mid-batch leaves its rows due again after this. */
  leaseMs: number;
  retry: RetryPolicy;
}

export const DEFAULT_SENDER_OPTIONS: MailSenderOptions = {
  intervalMs: 1000,
  batchSize: 5,
  // Longer than a batch can take: 5 messages × (10 s connect + 10 s greeting + 30 s socket).
  leaseMs: 5 * 60_000,
  retry: DEFAULT_RETRY_POLICY,
};

export const MAIL_SENDER_OPTIONS = Symbol('MAIL_SENDER_OPTIONS');

type Delivery = { ok: true } | { ok: false; unreachable: boolean; retryInMs: number };

/**
 * Delivers queued e-mail, like libs/messaging's OutboxRelay delivers events: claims due rows
 * (FOR UPDATE SKIP LOCKED, so replicas never claim the same row), sends each, and records the
 * outcome per message: sent, retrying with exponential backoff, or failed.
 *
 * - Server down: the first unreachable error ends the pass and gives the rest of the batch back
 *   untried, due when the failed one is retried; nothing is lost, it goes out when the server is back.
 * - Stop (shutdown): the message being sent finishes and is recorded; the rest of the batch is
 *   given back at once, for the next sender.
 * - Crash: claimed rows stay 'sending' until their lease runs out, then are claimed again. A crash
 *   between the server's acceptance and the 'sent' update sends that message twice (at least once,
 *   as SMTP allows); its Message-ID header is the same both times.
 */
@Injectable()
export class MailSender implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(MailSender.name);
  private readonly loop: PollingLoop;
  /** Set by stop(): the batch in progress hands its remaining messages back. */
  private stopping = false;

  constructor(
    @Inject(MailRepository) private readonly repository: MailRepository,
    @Inject(MailTransport) private readonly transport: MailTransport,
    @Inject(MessageCipher) private readonly cipher: MessageCipher,
    @Inject(MAIL_SENDER_OPTIONS) private readonly options: MailSenderOptions,
  ) {
    this.loop = new PollingLoop(() => this.drain(), options.intervalMs);
  }

  /** Starts polling, with a first pass right away (messages left over from before a restart). */
  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  /** Send soon: called after a message was queued (its row committed). */
  kick(): void {
    this.loop.kick();
  }

  /** Stops polling; waits for the message being sent, gives the rest of its batch back. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  /** After every module's destroy hook, so no pass is using the transport any more. */
  onApplicationShutdown(): Promise<void> {
    return this.transport.close();
  }

  /**
   * One batch: claims up to `batchSize` due messages and delivers them in order. Returns how many
   * were claimed, and whether the server was unreachable. Exposed for tests and one-off tools.
   */
  async sendBatch(): Promise<{ claimed: number; unreachable: boolean }> {
    const claimed = await this.repository.claimDue(this.options.batchSize, this.options.leaseMs);
    for (const [index, message] of claimed.entries()) {
      const rest = () => claimed.slice(index + 1).map((m) => m.id);
      if (this.stopping) {
        await this.repository.release([message.id, ...rest()], 0);
        break;
      }
      const delivery = await this.deliver(message);
      if (!delivery.ok && delivery.unreachable) {
        await this.repository.release(rest(), delivery.retryInMs);
        return { claimed: claimed.length, unreachable: true };
      }
    }
    return { claimed: claimed.length, unreachable: false };
  }

  private async deliver(message: ClaimedEmail): Promise<Delivery> {
    const attempt = message.attempts + 1;
    const log = { messageId: message.id, template: message.template, attempt };
    let envelope: EmailEnvelope;
    try {
      envelope = this.cipher.open<EmailEnvelope>(message.sealed, SEAL_CONTEXT.email(message.id));
    } catch {
      // Another key (NOTIFICATIONS_ENCRYPTION_KEY changed) or an altered row: no attempt can succeed.
      await this.repository.markAttemptFailed(message.id, { state: 'failed' }, 'The stored message cannot be decrypted');
      this.logger.error({ ...log, state: 'failed' }, 'stored message cannot be decrypted');
      return { ok: false, unreachable: false, retryInMs: 0 };
    }
    try {
      await this.transport.send({ id: message.id, ...envelope });
    } catch (error) {
      const outcome = afterFailure(
        { attempts: attempt, queuedAt: message.createdAt, now: new Date(), permanent: isPermanentRefusal(error) },
        this.options.retry,
      );
      const description = describeDeliveryError(error);
      await this.repository.markAttemptFailed(message.id, outcome, description);
      this.logger.warn({ ...log, state: outcome.state, error: description }, 'e-mail delivery failed');
      const retryInMs = outcome.state === 'retrying' ? outcome.delayMs : this.options.retry.baseMs;
      return { ok: false, unreachable: isServerUnreachable(error), retryInMs };
    }
    await this.repository.markSent(message.id);
    this.logger.log({ ...log, state: 'sent', transport: this.transport.kind }, 'e-mail sent');
    return { ok: true };
  }

  /** Batches until one comes back short (caught up), the server is unreachable, or stop() was called. */
  private async drain(): Promise<void> {
    try {
      let batch: { claimed: number; unreachable: boolean };
      do {
        batch = await this.sendBatch();
      } while (this.loop.isRunning && batch.claimed === this.options.batchSize && !batch.unreachable);
    } catch (err) {
      this.logger.error({ error: err instanceof Error ? err.message : String(err) }, 'mail sender pass failed');
    }
  }
}
