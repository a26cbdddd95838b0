import { DomainError } from '@medfolio/contracts';

/** What a caller reads when a dependency (PostgreSQL, NATS, another service) is away for a moment. */
export const UNAVAILABLE_MESSAGE = 'The service is unavailable; please try again shortly';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
// PostgreSQL: connection exceptions (class 08), shutting down or starting up (57P01-57P03), too many connections.
const SQLSTATE = /^(08...|57P0[123]|53300)$/;
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection error|terminating connection|the database system is (starting up|shutting down)|NATS is not connected/i;

/**
 * True when `error` says a dependency could not be reached (a refused or dropped connection,
 * PostgreSQL restarting, NATS away) rather than that the request was wrong or the code failed:
 * such errors answer 503 with {@link UNAVAILABLE_MESSAGE}, at once, and the caller may retry.
 * Looks through TypeORM's `driverError` and `cause`.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  return isDependencyUnavailable(driverError, depth + 1) || isDependencyUnavailable(cause, depth + 1);
}

export function unavailableError(): DomainError {
  return new DomainError('UNAVAILABLE', UNAVAILABLE_MESSAGE);
}
