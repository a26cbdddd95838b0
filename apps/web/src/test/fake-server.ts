/**
 * Answers the app's fetch calls as the gateway would, for component tests: a table of
 * "METHOD /path" → handler. Unknown calls answer 404 so a test sees them. Every call is recorded.
 */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
  /** The record the call acts on when it is someone else's (X-Patient-Id); absent for the caller's own. */
  patient?: string;
}

/** `body` is sent as JSON; `text` is sent as it is, with `headers` (a CSV download, say). */
type Answer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };
type Handler = (call: RecordedCall) => Answer | Promise<Answer>;

export function fakeServer(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    let body: unknown;
    if (request.headers.get('content-type')?.startsWith('multipart/form-data')) {
      // A multipart upload is recorded as the FormData the server would read (fields and files).
      body = await request.formData();
    } else {
      const text = await request.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
    }
    const call = { method: request.method, path: url.pathname + url.search, body, authorization: request.headers.get('authorization') };
    const patient = request.headers.get('x-patient-id');
    if (patient) Object.assign(call, { patient });
    calls.push(call);
    const handler = routes[`${request.method} ${url.pathname}`];
    const answer: Answer = handler ? await handler(call) : { status: 404, body: { message: 'Not found.', code: 'NOT_FOUND' } };
    if (answer.text !== undefined) return new Response(answer.text, { status: answer.status ?? 200, headers: answer.headers ?? { 'content-type': 'text/plain' } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof fetch;
  return { calls };
}
