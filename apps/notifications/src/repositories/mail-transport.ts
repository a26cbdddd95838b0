import { createTransport, type Transporter } from 'nodemailer';
import type { NotificationsConfig } from '../config';

/** What the sender hands a transport: one rendered message. */
export interface OutgoingMail {
  /** Our message id: also the Message-ID header, so a resend after a crash can be recognised. */
  id: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Where mail goes. `smtp` hands it to the SMTP server (SMTP_URL). `dev-mailbox` (SMTP_URL unset)
 * sends nothing: the stored message, marked sent, is what `notifications.devmail.list` shows.
 */
export abstract class MailTransport {
  abstract readonly kind: 'smtp' | 'dev-mailbox';

  /** Resolves once the server accepted the message; throws nodemailer's error otherwise. */
  abstract send(mail: OutgoingMail): Promise<void>;

  async close(): Promise<void> {
    // Nothing to release by default.
  }
}

/** Bounds on one delivery attempt, so a silent server cannot hold a claimed batch past its lease. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export class SmtpMailTransport extends MailTransport {
  readonly kind = 'smtp';
  private readonly transporter: Transporter;
  private readonly messageIdDomain: string;

  constructor(smtpUrl: string, from: string) {
    super();
    // One connection per message (no pool): nothing stale to recover after the server was away.
    this.transporter = createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS, logger: false, debug: false }, { from });
    this.messageIdDomain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'medfolio.local';
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({
      to: mail.to,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.id}@${this.messageIdDomain}>`,
    });
  }

  override async close(): Promise<void> {
    this.transporter.close();
  }
}

export class DevMailbox extends MailTransport {
  readonly kind = 'dev-mailbox';

  async send(): Promise<void> {
    // Nothing leaves: marked sent, the stored message is the mailbox's copy.
  }
}

export function createMailTransport(config: Pick<NotificationsConfig, 'smtpUrl' | 'mailFrom'>): MailTransport {
  return config.smtpUrl ? new SmtpMailTransport(config.smtpUrl, config.mailFrom) : new DevMailbox();
}
