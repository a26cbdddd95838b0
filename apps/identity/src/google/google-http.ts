import { GoogleSignInError } from './google-identity';

/** Largest answer accepted from Google; a profile or a token description is a few hundred bytes. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface GoogleJsonResponse {
  status: number;
  /** The parsed JSON object, or undefined when the status is not 2xx. */
  body: Record<string, unknown> | undefined;
}

/**
 * GET a JSON object from a Google endpoint with a time limit. A failed connection, a time-out, a 5xx
 * or an unreadable answer is {@link GoogleSignInError} 'google-unreachable'; other statuses are
 * returned so that the caller decides what a 4xx means. The URL may contain a token: it is never
 * logged or put into an error.
 */
export async function getGoogleJson(
  url: URL,
  init: { headers?: Record<string, string>; timeoutMs: number },
): Promise<GoogleJsonResponse> {
  try {
    const response = await fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...init.headers },
      redirect: 'error',
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel();
      throw new GoogleSignInError('google-unreachable');
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { status: response.status, body: undefined };
    }
    const text = await response.text();
    if (text.length > MAX_RESPONSE_BYTES) throw new GoogleSignInError('google-unreachable');
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new GoogleSignInError('google-unreachable');
    }
    return { status: response.status, body: body as Record<string, unknown> };
  } catch (error) {
    if (error instanceof GoogleSignInError) throw error;
    // TypeError "fetch failed" (connection), TimeoutError, a body cut off, SyntaxError (not JSON).
    throw new GoogleSignInError('google-unreachable');
  }
}
