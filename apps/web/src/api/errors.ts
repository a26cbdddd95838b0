/** The dialog text when the server gives no message of its own (spec section 8). */
export const GENERIC_ERROR =
  'Oops! Something went wrong on our end. Please give us a moment to fix it. Feel free to try again later';

/** The server's `message` field from an RTK Query error, if it has one. */
export function serverMessage(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message) {
      return data.message;
    }
  }
  return undefined;
}

export function errorMessage(error: unknown, fallback = GENERIC_ERROR): string {
  return serverMessage(error) ?? fallback;
}

/** The server's `code` field (VALIDATION_FAILED, STEP_UP_REQUIRED, ...) from an RTK Query error, if it has one. */
export function serverCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && 'code' in data && typeof data.code === 'string') return data.code;
  }
  return undefined;
}

export function httpStatus(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') return error.status;
  return undefined;
}
