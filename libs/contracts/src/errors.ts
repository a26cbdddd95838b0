/**
 * Typed error codes that cross service boundaries. A service fails a request with an
 * {@link ErrorCode}; the gateway maps each code to an HTTP status in ONE exhaustive switch
 * (apps/gateway/src/services/http-errors.ts), so adding a code without a mapping is a type error.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  /** 403: the password is not enough from this client now; enter the code e-mailed to the account (POST /api/verify-otp/). */
  'STEP_UP_REQUIRED',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUOTA_EXCEEDED',
  'UPSTREAM_TIMEOUT',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The shape an error travels in over request/reply. `message` is safe to show to the user. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  /** Optional per-field detail for VALIDATION_FAILED. */
  details?: Record<string, string[]>;
}

/** Thrown by services (and re-thrown by RPC clients) with a typed code. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toPayload(): ErrorPayload {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}
