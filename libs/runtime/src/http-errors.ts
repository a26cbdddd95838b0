import type { ErrorCode } from '@medfolio/contracts';

/** The one place where an error code becomes an HTTP status. Exhaustive: a new code must be mapped. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
    case 'STEP_UP_REQUIRED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'QUOTA_EXCEEDED':
      return 402;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'UNAVAILABLE':
      return 503;
    case 'UPSTREAM_TIMEOUT':
      return 504;
  }
}

/** And back, for errors raised by the HTTP layer itself (router, body parser, guards). */
export function errorCodeForStatus(status: number): ErrorCode {
  if (status === 400) return 'VALIDATION_FAILED';
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404 || status === 405) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 503) return 'UNAVAILABLE';
  if (status === 504) return 'UPSTREAM_TIMEOUT';
  return status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED';
}
