import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HistoryPage } from '@medfolio/contracts';
import { get, tokenFor } from './support/api';
import { forgedTokens } from './support/forged-tokens';
import { accountJourney, call, codeFor, type Mailbox } from './support/journey';
import { runNode, startNode, waitFor, type Running } from './support/processes';

/** `npm start`'s process: everything in one process on embedded defaults (PGlite, in-process messaging). */
describe('embedded one-process mode', () => {
  let dataDir: string;
  let running: Running | undefined;
  let base: string;

  const start = async () => {
    running = startNode('apps/medfolio/src/main.js', [], { PORT: '0', DATA_DIR: dataDir });
    const url = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(running!.output())?.[1]);
    return url;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-'));
    base = await start();
  });

  afterAll(async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports itself and every service ready', async () => {
    const health = await get<{ status: string; services: Record<string, { status: string }> }>(`${base}/api/health/`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.services['audit']?.status).toBe('ok');
  });

  it('refuses the history without a token, with a JSON message and code', async () => {
    const reply = await get(`${base}/api/history/`);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: 'Authentication credentials were not provided or are invalid.', code: 'UNAUTHENTICATED' });
    expect(reply.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it("serves a signed-in patient's history, in which reading it is itself recorded", async () => {
    const user = `patient-${randomUUID()}`;
    const token = await tokenFor(dataDir, user);
    expect((await get(`${base}/api/history/`, token)).status).toBe(200);
    const page = await waitFor('the recorded read', async () => {
      const reply = await get<HistoryPage>(`${base}/api/history/?page_size=10`, token);
      return reply.body.total >= 1 ? reply.body : undefined;
    });
    expect(page.results[0]).toMatchObject({ who: 'you', action: 'history.read', what: 'Viewed access history' });
    const other = await get<HistoryPage>(`${base}/api/history/`, await tokenFor(dataDir, `patient-${randomUUID()}`));
    expect(other.body.results.every((r) => r.who === 'you')).toBe(true);
  });

  it('answers bad input with a clear message', async () => {
    const token = await tokenFor(dataDir, 'patient-x');
    const reply = await get(`${base}/api/history/?page_size=500`, token);
    expect(reply).toMatchObject({ status: 400, body: { message: 'page_size must not be greater than 100', code: 'VALIDATION_FAILED' } });
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await get(`${base}/api/history/`, forged)).status).toBe(401);
  });

  it('refuses every forged, expired or misused token with 401', async () => {
    const tokens = await forgedTokens(dataDir);
    const statuses: Record<string, number> = {};
    for (const [name, token] of Object.entries(tokens)) statuses[name] = (await get(`${base}/api/history/`, token)).status;
    expect(statuses).toEqual(Object.fromEntries(Object.keys(tokens).map((name) => [name, 401])));
  });

  it('takes a new patient through the whole account journey, reading e-mail in the dev mailbox', async () => {
    const mailbox: Mailbox = {
      textsTo: async (to) => {
        const reply = await call<{ to: string; subject: string; text: string }[]>(base, 'GET', '/dev/mail.json');
        return reply.body.filter((m) => m.to.toLowerCase() === to.toLowerCase()).map((m) => `${m.subject}\n\n${m.text}`);
      },
    };
    await accountJourney(base, mailbox).catch((error: Error) => {
      throw new Error(`${error.message}\n--- product log (tail) ---\n${running!.output().slice(-4000)}`);
    });
    const page = await fetch(`${base}/dev/mail`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Your Medfolio verification code');
  });

  it('never lets one user read or change another user\'s profile (IDOR)', async () => {
    const mailbox: Mailbox = {
      textsTo: async (to) => (await call<{ to: string; text: string }[]>(base, 'GET', '/dev/mail.json')).body.filter((m) => m.to === to).map((m) => m.text),
    };
    const signUp = async (name: string) => {
      const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
      await call(base, 'POST', '/api/register/', { first_name: name, phone: '1', email, password: 'correct horse battery', date_of_birth: '1985-05-05' });
      await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
      const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email, password: 'correct horse battery' });
      const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
      return { token: login.body.access, id: me.body.id };
    };
    const alice = await signUp('Alice');
    const bob = await signUp('Bob');
    // Bob names Alice's id every way he can; the server only ever uses the id in his own token.
    const attempt = await call<{ id: string; first_name: string }>(base, 'PUT', '/api/profile/', { id: alice.id, user_id: alice.id, first_name: 'Mallory', phone: '2' }, bob.token);
    expect(attempt.body).toMatchObject({ id: bob.id, first_name: 'Mallory' });
    expect((await call(base, 'GET', `/api/profile/?user=${alice.id}`, undefined, bob.token)).body).toMatchObject({ id: bob.id });
    expect((await call(base, 'GET', `/api/profile/${alice.id}/`, undefined, bob.token)).status).toBe(404);
    expect((await call(base, 'GET', '/api/profile/', undefined, alice.token)).body).toMatchObject({ id: alice.id, first_name: 'Alice' });
  });

  it('publishes OpenAPI with the paths written as the contract writes them', async () => {
    const doc = await get<{ paths: Record<string, unknown> }>(`${base}/api/docs-json`);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/history/', '/api/health/']));
    expect((await get(`${base}/api/docs`)).status).toBe(200);
  });

  it('stops cleanly on Ctrl-C and keeps its data across a restart', async () => {
    const user = `patient-${randomUUID()}`;
    const token = await tokenFor(dataDir, user);
    await get(`${base}/api/history/`, token);
    await waitFor('the read to be stored', async () => ((await get<HistoryPage>(`${base}/api/history/`, token)).body.total >= 2 ? true : undefined));
    const code = await running!.stop('SIGINT');
    expect(code).toBe(0);
    expect(running!.output()).toContain('Stopped.');
    base = await start();
    const after = await get<HistoryPage>(`${base}/api/history/`, token);
    expect(after.body.total).toBeGreaterThanOrEqual(2);
  });

  it('refuses to start on a bad setting, naming it in one line', async () => {
    const result = await runNode('apps/medfolio/src/main.js', [], { PORT: 'eighty', DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.output.trim()).toBe('Invalid configuration: PORT must be a whole number (value hidden)');
  });
});
