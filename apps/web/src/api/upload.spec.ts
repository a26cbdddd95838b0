import { waitFor } from '@testing-library/react';
import { makeStore } from '../app/store';
import { setNavigator } from '../session/navigation';
import { accessToken, clearTokens, storeTokens } from '../session/tokens';
import { installFakeXhr, nextRequest as next, type FakeXhr } from '../test/fake-xhr';
import { nth } from '../test/nth';
import { api } from './api';
import { documentsUploadArg } from './upload';

/**
 * POST /api/upload/ through XMLHttpRequest (api.ts's documentsUpload): the exact multipart
 * request, progress, answers and errors, and the session's refresh-once rule.
 */
let xhr: ReturnType<typeof installFakeXhr>;
let navigations: string[];

beforeEach(() => {
  xhr = installFakeXhr();
  navigations = [];
  setNavigator((to) => navigations.push(to));
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
});
afterEach(() => {
  xhr.restore();
  clearTokens();
});

const reply = { message: '2 files uploaded successfully.', image_urls: ['/api/files/a', '/api/files/b'], image_url: '/api/files/a', documents: [] };

const nextRequest = (index: number): Promise<FakeXhr> => next(xhr.requests, index);

describe('documentsUpload', () => {
  it('sends every file as a repeated `files` field, with the bearer token, and reports progress', async () => {
    const store = makeStore();
    const progress: [number, number][] = [];
    const files = [new File(['%PDF-1.7 report'], 'Blood test.pdf', { type: 'application/pdf' }), new File(['png bytes'], 'scan.png', { type: 'image/png' })];
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg(files, (loaded, total) => progress.push([loaded, total]))));

    const request = await nextRequest(0);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/upload/');
    expect(request.headers['authorization']).toBe('Bearer access-1');
    // The browser writes the multipart Content-Type with its boundary: the app must not set one.
    expect(request.headers['content-type']).toBeUndefined();
    expect([...request.form.keys()]).toEqual(['files', 'files']);
    const sent = request.form.getAll('files') as File[];
    expect(sent.map((f) => f.name)).toEqual(['Blood test.pdf', 'scan.png']);
    expect(await nth(sent, 0).text()).toBe('%PDF-1.7 report');

    request.progress(100, 400);
    request.progress(400, 400);
    expect(progress).toEqual([
      [100, 400],
      [400, 400],
    ]);
    request.respond(201, reply);
    await expect(pending.unwrap()).resolves.toEqual(reply);
  });

  it("returns the server's error as RTK Query does ({ status, data })", async () => {
    const store = makeStore();
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg([new File(['MZ'], 'setup.pdf')])));
    (await nextRequest(0)).respond(415, { message: '"setup.pdf" is not a PDF.', code: 'UNSUPPORTED_MEDIA_TYPE' });
    await expect(pending.unwrap()).rejects.toEqual({ status: 415, data: { message: '"setup.pdf" is not a PDF.', code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('a failed connection is a FETCH_ERROR', async () => {
    const store = makeStore();
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg([new File(['x'], 'a.pdf')])));
    (await nextRequest(0)).fail();
    await expect(pending.unwrap()).rejects.toMatchObject({ status: 'FETCH_ERROR' });
  });

  it('aborting the mutation aborts the request', async () => {
    const store = makeStore();
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg([new File(['x'], 'a.pdf')])));
    const request = await nextRequest(0);
    pending.abort();
    await expect(pending.unwrap()).rejects.toMatchObject({ name: 'AbortError' });
    await waitFor(() => expect(request.aborted).toBe(true));
  });

  it('a 401 refreshes the access token once and sends the upload again with the new one', async () => {
    const store = makeStore();
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg([new File(['x'], 'a.pdf')])));
    (await nextRequest(0)).respond(401, { message: 'Token expired', code: 'UNAUTHENTICATED' });

    const refresh = await nextRequest(1);
    expect(new URL(refresh.url).pathname).toBe('/api/token/refresh/');
    expect(refresh.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refresh.body as string)).toEqual({ refresh: 'refresh-1' });
    refresh.respond(200, { access: 'access-2', refresh: 'refresh-2' });

    const retry = await nextRequest(2);
    expect(retry.headers['authorization']).toBe('Bearer access-2');
    expect((retry.form.getAll('files') as File[]).map((f) => f.name)).toEqual(['a.pdf']);
    retry.respond(201, reply);
    await expect(pending.unwrap()).resolves.toEqual(reply);
    expect(accessToken()).toBe('access-2');
    expect(navigations).toEqual([]);
  });

  it('a failed refresh ends the session and goes to /login', async () => {
    const store = makeStore();
    const pending = store.dispatch(api.endpoints.documentsUpload.initiate(documentsUploadArg([new File(['x'], 'a.pdf')])));
    (await nextRequest(0)).respond(401, { message: 'Token expired', code: 'UNAUTHENTICATED' });
    (await nextRequest(1)).respond(401, { message: 'Refresh token revoked', code: 'UNAUTHENTICATED' });
    // Signing out resets the API state (app/store.ts), which ends the upload as aborted.
    await expect(pending.unwrap()).rejects.toMatchObject({ name: 'AbortError' });
    expect(xhr.requests).toHaveLength(2);
    expect(accessToken()).toBeUndefined();
    expect(store.getState().session.authenticated).toBe(false);
    expect(navigations).toEqual(['/login']);
  });
});
