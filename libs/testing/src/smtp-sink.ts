import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One message as the SMTP server received it, with both parts decoded. */
export interface ReceivedMail {
  recipients: string[];
  headers: Record<string, string>;
  messageId: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpSinkOptions {
  port?: number;
  /** Require these credentials (AUTH PLAIN/LOGIN over plain TCP, as a local relay would). */
  auth?: { user: string; pass: string };
  /** Recipients refused with "550 no such user". */
  refuse?: (address: string) => boolean;
  /** Wait this long before accepting each message (a slow server). */
  delayMs?: number;
}

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps what it receives. Tests only. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: !options.auth,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = !options.auth || (auth.username === options.auth.user && auth.password === options.auth.pass);
      callback(ok ? null : Object.assign(new Error('Invalid credentials'), { responseCode: 535 }), ok ? { user: auth.username } : undefined);
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (options.refuse?.(address.address)) callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      else callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (options.delayMs) await sleep(options.delayMs);
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({ recipients: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(raw), raw });
          callback();
        })();
      });
    },
  });
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (yet): for "the SMTP server is down". */
export { freePort } from './tool-process';

/** Just enough MIME for nodemailer's output: headers, and the text/plain and text/html parts decoded. */
function parseMessage(raw: string): Omit<ReceivedMail, 'recipients' | 'raw'> {
  const { headers, body } = splitHeaders(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1).map(splitHeaders) : [{ headers, body }];
  const part = (type: string) => {
    const found = parts.find((p) => (p.headers['content-type'] ?? '').startsWith(type));
    return found ? decode(found.body, found.headers['content-transfer-encoding'] ?? '7bit') : '';
  };
  return { headers, messageId: headers['message-id'] ?? '', subject: headers['subject'] ?? '', text: part('text/plain'), html: part('text/html') };
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const text = raw.replace(/^\r\n/, '');
  const end = text.indexOf('\r\n\r\n');
  const headerText = end === -1 ? text : text.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of headerText.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end === -1 ? '' : text.slice(end + 4) };
}

function decode(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
  }
  return body.replace(/\r\n/g, '\n');
}
