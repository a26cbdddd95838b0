import type { BaseQueryApi, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { DocumentsUploadApiArg } from './generated';
import type { UploadReply } from '@medfolio/contracts';
import type { RawBaseQuery } from './reauth';

/**
 * What the upload borrows from the app's API layer (api.ts passes them in). This module is loaded
 * only with the first upload; importing them here instead would split the landing page's first
 * script into several shared chunks that compress worse.
 */
export interface UploadSession {
  /** The current access token (session/tokens.ts). */
  accessToken: () => string | undefined;
  /** The session rules around a base query (api/reauth.ts): refresh once on a 401, shared with fetch calls. */
  withReauth: (raw: RawBaseQuery) => RawBaseQuery;
  /** The X-Patient-Id of the record being looked at (someone else's: a child's, a caregiver's), if any. */
  patientId?: string | undefined;
}

/** Bytes of the request body sent so far, of `total` (the whole multipart body). */
export type UploadProgress = (loaded: number, total: number) => void;

/** The upload's argument as the dashboard passes it: the generated one plus a progress callback. */
export interface DocumentsUploadArgWithProgress extends DocumentsUploadApiArg {
  onProgress?: UploadProgress | undefined;
}

/**
 * The argument of useDocumentsUploadMutation with a progress callback. The generated argument
 * type cannot carry one; the endpoint's queryFn (api.ts) reads it from here.
 */
export function documentsUploadArg(files: Blob[], onProgress?: UploadProgress): DocumentsUploadApiArg {
  const arg: DocumentsUploadArgWithProgress = { body: { files }, onProgress };
  return arg;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A base query on XMLHttpRequest, the one browser API that reports upload progress (fetch does
 * not). Same contract as fetchBaseQuery: `{ data }`, or `{ error: { status, data } }` for an HTTP
 * error and `{ error: { status: 'FETCH_ERROR' } }` when the connection fails or is aborted. A
 * FormData body is sent as it is (the browser writes the multipart boundary); any other body as JSON.
 */
export function xhrBaseQuery(accessToken: () => string | undefined, onProgress?: UploadProgress, patientId?: string): RawBaseQuery {
  return (args: string | FetchArgs, api: BaseQueryApi) =>
    new Promise((resolve) => {
      const { url, method = 'GET', body } = typeof args === 'string' ? { url: args } : args;
      const xhr = new XMLHttpRequest();
      xhr.open(method, new URL(url, window.location.origin).href);
      const token = accessToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      if (patientId) xhr.setRequestHeader('X-Patient-Id', patientId);
      let payload: XMLHttpRequestBodyInit | null = null;
      if (body instanceof FormData) {
        payload = body;
        if (onProgress) {
          xhr.upload.addEventListener('progress', (event) => {
            if (event.lengthComputable) onProgress(event.loaded, event.total);
          });
        }
      } else if (body !== undefined) {
        xhr.setRequestHeader('Content-Type', 'application/json');
        payload = JSON.stringify(body);
      }
      const fail = (error: string) => resolve({ error: { status: 'FETCH_ERROR', error } satisfies FetchBaseQueryError });
      xhr.addEventListener('load', () => {
        const data = parse(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) resolve({ data });
        else resolve({ error: { status: xhr.status, data } });
      });
      xhr.addEventListener('error', () => fail('TypeError: the connection failed'));
      xhr.addEventListener('abort', () => fail('AbortError: the request was cancelled'));
      if (api.signal.aborted) {
        fail('AbortError: the request was cancelled');
        return;
      }
      api.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(payload);
    });
}

/**
 * POST /api/upload/: the files as repeated `files` fields, through XMLHttpRequest so that the
 * dashboard can show real progress, with the session rules of every other call (a 401 refreshes
 * the access token once, shared with the fetch calls, and the upload is sent again).
 */
export async function uploadDocuments(
  arg: DocumentsUploadApiArg,
  api: BaseQueryApi,
  session: UploadSession,
): Promise<{ data: UploadReply } | { error: FetchBaseQueryError }> {
  const { body, onProgress } = arg as DocumentsUploadArgWithProgress;
  const form = new FormData();
  for (const file of body.files) {
    if (file instanceof File) form.append('files', file, file.name);
    else form.append('files', file);
  }
  const result = await session.withReauth(xhrBaseQuery(session.accessToken, onProgress, session.patientId))({ url: '/api/upload/', method: 'POST', body: form }, api, {});
  if (result.error) return { error: result.error };
  return { data: result.data as UploadReply };
}
