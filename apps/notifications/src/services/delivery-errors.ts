/**
 * What a failed SMTP delivery means for the message. nodemailer errors carry `code` (ECONNECTION,
 * EENVELOPE, ...) and, when the server answered, `responseCode` (421, 550, ...).
 */
interface MailError {
  code?: unknown;
  responseCode?: unknown;
  message?: unknown;
}

/** The server is not there (refused, timed out, DNS, TLS): the rest of a batch would fail the same way. */
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Codes nodemailer gives a refusal of this message or its recipient (as opposed to the connection or login). */
const MESSAGE_REFUSED = new Set(['EENVELOPE', 'EMESSAGE']);

export function isServerUnreachable(error: unknown): boolean {
  const { code } = (error ?? {}) as MailError;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

/** A 5xx refusal of the message or recipient: permanent, retrying cannot help. (A 5xx login failure can: it is configuration.) */
export function isPermanentRefusal(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as MailError;
  return typeof code === 'string' && MESSAGE_REFUSED.has(code) && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}

const EMAIL_LIKE = /[^\s<>"'@,;:]+@[^\s<>"'@,;:]+/g;

/**
 * The error as stored in `last_error` and logged: code, response code and message, with anything
 * that looks like an e-mail address removed (servers quote the recipient: "550 <someone@...>: ...").
 */
export function describeDeliveryError(error: unknown): string {
  const { code, responseCode, message } = (error ?? {}) as MailError;
  const text = typeof message === 'string' ? message : String(error);
  const prefix = [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null].filter(Boolean).join(' ');
  return `${prefix ? `${prefix}: ` : ''}${text.replace(EMAIL_LIKE, '<address>')}`.slice(0, 500);
}
