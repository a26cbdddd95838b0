import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HistoryPage } from '@medfolio/contracts';
import { get, tokenFor } from './support/api';
import { forgedTokens } from './support/forged-tokens';
import { billingJourney, signUp } from './support/billing-journey';
import { subscribe, trendsJourney } from './support/trends-journey';
import { documentsJourney } from './support/documents-journey';
import { sharingJourney } from './support/sharing-journey';
import { summaryJourney } from './support/summary-journey';
import { linkAccessJourney, providersJourney } from './support/providers-journey';
import { FakeNppes } from '@medfolio/testing';
import { patientIdentityJourney } from './support/patient-identity-journey';
import { shareFormatsJourney } from './support/share-formats-journey';
import { walletJourney } from './support/wallet-journey';
import { connectionsJourney, startJourneySandbox } from './support/connections-journey';
import { shlReceiveJourney } from './support/shl-receive-journey';
import type { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { accountJourney, call, codeFor, type Mailbox } from './support/journey';
import { DEV_MAIL_JSON, DEV_MAIL_KEY, runNode, startNode, waitFor, type Running } from './support/processes';
import { randomBytes } from 'node:crypto';
import { recordStripeRequests, useStripeMock } from '@medfolio/testing';

/** `npm start`'s process: everything in one process on embedded defaults (PGlite, in-process messaging). */
describe('embedded one-process mode', () => {
  let dataDir: string;
  let running: Running | undefined;
  let base: string;
  let nppes: FakeNppes;
  let smart: { sandbox: SmartSandbox; env: Record<string, string> };
  /** The dev mailbox: the text of each message to exactly `to`. */
  const devMailTexts: Mailbox = {
    textsTo: async (to) => (await call<{ to: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => m.text),
  };
  /** The dev mailbox: the subject and text of each message to exactly `to`. */
  const devMailMessages: Mailbox = {
    textsTo: async (to) => (await call<{ to: string; subject: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => `${m.subject}\n\n${m.text}`),
  };
  /** Runs a journey; when it fails, the error carries the end of the product's log. */
  const withLog = (journey: Promise<unknown>): Promise<unknown> =>
    journey.catch((error: Error) => {
      throw new Error(`${error.message}\n--- product log (tail) ---\n${running!.output().slice(-4000)}`);
    });

  const start = async () => {
    running = startNode('apps/medfolio/src/main.js', [], { PORT: '0', DATA_DIR: dataDir, DOCUMENT_QUOTA_FREE: '5', REFRESH_REUSE_GRACE_SECONDS: '0', NPI_REGISTRY_URL: nppes.url, ...smart.env });
    const url = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(running!.output())?.[1]);
    return url;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-'));
    nppes = await FakeNppes.start();
    smart = await startJourneySandbox(path.join(dataDir, 'endpoints.json'));
    base = await start();
  });

  afterAll(async () => {
    await running?.stop();
    await nppes?.stop();
    await smart?.sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports itself and every service ready', async () => {
    const health = await get<{ status: string; services: Record<string, { status: string }> }>(`${base}/api/health/`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.services['audit']?.status).toBe('ok');
    expect(health.body.services['documents']?.status).toBe('ok');
    expect(health.body.services['summary']?.status).toBe('ok');
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
        const reply = await call<{ to: string; subject: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON);
        return reply.body.filter((m) => m.to.toLowerCase() === to.toLowerCase()).map((m) => `${m.subject}\n\n${m.text}`);
      },
    };
    await withLog(accountJourney(base, mailbox));
    const page = await fetch(`${base}/dev/mail?key=${DEV_MAIL_KEY}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Your Medfolio verification code');
    // The start-up line gives the link with the secret; without it, or through a proxy, the mailbox is not there.
    expect(running!.output()).toContain(`/dev/mail?key=${DEV_MAIL_KEY}`);
    expect((await fetch(`${base}/dev/mail.json`)).status).toBe(404);
    expect((await fetch(`${base}${DEV_MAIL_JSON}`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(404);
  });

  it('never lets one user read or change another user\'s profile (IDOR)', async () => {
    const signUp = async (name: string) => {
      const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
      await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password: 'correct horse battery', date_of_birth: '1985-05-05' });
      await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(devMailTexts, email) });
      const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email, password: 'correct horse battery' });
      const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
      return { token: login.body.access, id: me.body.id };
    };
    const alice = await signUp('Alice');
    const bob = await signUp('Bob');
    // Bob names Alice's id every way he can; the server only ever uses the id in his own token.
    const attempt = await call<{ id: string; first_name: string }>(base, 'PUT', '/api/profile/', { id: alice.id, user_id: alice.id, first_name: 'Mallory', phone: '+1 202 555 0188' }, bob.token);
    expect(attempt.body).toMatchObject({ id: bob.id, first_name: 'Mallory' });
    expect((await call(base, 'GET', `/api/profile/?user=${alice.id}`, undefined, bob.token)).body).toMatchObject({ id: bob.id });
    expect((await call(base, 'GET', `/api/profile/${alice.id}/`, undefined, bob.token)).status).toBe(404);
    expect((await call(base, 'GET', '/api/profile/', undefined, alice.token)).body).toMatchObject({ id: alice.id, first_name: 'Alice' });
  });

  it('answers every invalid account request with its exact message', async () => {
    const ok = { first_name: 'Ana', phone: '+1 202 555 0143', email: `v-${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse', date_of_birth: '1990-01-01' };
    const long = 'x'.repeat(101);
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/api/register/', { ...ok, first_name: undefined }, 400, 'Name is required'],
      ['POST', '/api/register/', { ...ok, first_name: long }, 400, 'Limit exceeded (100 characters)'],
      ['POST', '/api/register/', { ...ok, phone: '' }, 400, 'Mobile number is required'],
      ['POST', '/api/register/', { ...ok, phone: 'abc' }, 400, 'Enter a valid mobile number with its country code, e.g. +44 20 7946 0958.'],
      ['POST', '/api/register/', { ...ok, email: undefined }, 400, 'Email is required'],
      ['POST', '/api/register/', { ...ok, email: 'not-an-email' }, 400, 'Enter a valid e-mail address.'],
      ['POST', '/api/register/', { ...ok, password: undefined }, 400, 'Password is required'],
      ['POST', '/api/register/', { ...ok, password: 'short' }, 400, 'Password must be at least 8 characters.'],
      ['POST', '/api/register/', { ...ok, password: long }, 400, 'Limit exceeded (100 characters)'],
      ['POST', '/api/register/', { ...ok, date_of_birth: '01/01/1990' }, 400, 'Date of birth must be a date written YYYY-MM-DD.'],
      ['POST', '/api/register/', { ...ok, date_of_birth: '1990-02-30' }, 400, 'Date of birth is not a real date.'],
      ['POST', '/api/register/', { ...ok, date_of_birth: '2999-01-01' }, 400, 'Date of birth cannot be in the future.'],
      ['POST', '/api/login/', { password: 'x' }, 400, 'Email is required'],
      ['POST', '/api/login/', { email: long, password: 'x' }, 400, 'Limit exceeded (100 characters)'],
      ['POST', '/api/login/', { email: 'a@b.c' }, 400, 'Password is required'],
      ['POST', '/api/login/', { email: 'nobody@example.com', password: 'whatever' }, 401, 'The e-mail address or password is incorrect.'],
      ['POST', '/api/forgot-password/', {}, 400, 'Email is required'],
      ['POST', '/api/reset-password/', { email: 'a@b.c', password: 'long enough', token: 'nope' }, 400, 'This reset link is not valid or has expired. Please ask for a new one.'],
      ['POST', '/api/verify-otp/', { email: 'nobody@example.com', otp: '1234' }, 400, 'This code is not valid. Check the code in your e-mail, or ask for a new one.'],
      ['POST', '/api/login-with-google/', {}, 400, 'Google login failed: No credential returned'],
      ['POST', '/api/login-with-google/', { token: 'x.y.z' }, 503, 'Google sign-in is not configured.'],
      ['POST', '/api/token/refresh/', {}, 400, 'Refresh token is required'],
      ['POST', '/api/contact/', { firstname: 'A', lastname: 'B', email: 'bad', message: 'Hi' }, 400, 'Invalid email'],
      ['POST', '/api/contact/', { firstname: 'A', lastname: 'B', email: 'a@b.co', message: 'm'.repeat(201) }, 400, 'Limit exceeded (200 characters)'],
    ];
    const answers = [];
    for (const [method, path, body, , ] of cases) {
      const reply = await call<{ message: string }>(base, method, path, body);
      answers.push([reply.status, reply.body.message]);
    }
    expect(answers).toEqual(cases.map(([, , , status, message]) => [status, message]));
    const registered = await call<{ message: string }>(base, 'POST', '/api/register/', ok);
    expect(registered.status).toBe(201);
    // A taken address (in any case) is answered as a new one; its owner gets an e-mail instead of a code (it answered 409).
    const again = await call<{ message: string; email: string }>(base, 'POST', '/api/register/', { ...ok, email: ok.email.toUpperCase() });
    expect(again).toMatchObject({ status: 201, body: { message: registered.body.message, email: ok.email.toUpperCase() } });
    const mails = await waitFor('the sign-up attempt e-mail', async () => {
      const sent = (await call<{ to: string; subject: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === ok.email);
      return sent.some((m) => m.subject.startsWith('Someone tried to sign up')) ? sent : undefined;
    });
    expect(mails.map((m) => m.subject).sort()).toEqual(['Someone tried to sign up to Medfolio with your e-mail address', 'Your Medfolio verification code']);
  });

  it('takes two patients through their documents: upload, list, thumbnails, download, 404s, quota, delete', async () => {
    const alice = await tokenFor(dataDir, randomUUID());
    const bob = await tokenFor(dataDir, randomUUID());
    await withLog(documentsJourney(base, alice, bob));
  });

  it("reads a patient's uploaded visit note into their summary, cited, owner-only, and forgets it on deletion", async () => {
    await withLog(summaryJourney(base, devMailTexts));
  });

  it('shares a confirmed summary through links: anyone holding one reads it, guesses and revoked links get 404, views are in the history and e-mailed once', async () => {
    await withLog(sharingJourney(base, devMailTexts));
  });

  it('names the patient on a link\'s page, PDF and IPS (current name and date of birth), and nobody on an anonymous link', async () => {
    await withLog(patientIdentityJourney(base, devMailTexts));
  });

  it('lets a doctor read a shared summary as a FHIR IPS through a SMART Health Link, as FHIR and as a PDF, until it is revoked', async () => {
    const ownerId = randomUUID();
    await withLog(shareFormatsJourney(base, ownerId, await tokenFor(dataDir, ownerId)));
  });

  it('gives a patient a signed wallet pass carrying its own link, kept current through the PassKit web service when the link is revoked', async () => {
    await withLog(walletJourney(base, devMailTexts, dataDir));
  });

  it('connects a hospital (the local SMART sandbox) through the directory, PKCE and the callback, lists it and disconnects it', async () => {
    const patient = await signUp(base, devMailTexts, 'Marge');
    const other = await signUp(base, devMailTexts, 'Ned');
    await withLog(connectionsJourney(base, smart.sandbox, patient.token, other.token));
  });

  it("receives a clinic's SMART Health Link (kill-the-clipboard): passcode, the bundle and a verified card in the documents, cited by the summary", async () => {
    const patient = await signUp(base, devMailTexts, 'Lisa');
    const other = await signUp(base, devMailTexts, 'Rod');
    await withLog(shlReceiveJourney(base, patient.token, other.token));
  });

  it('lets a doctor verified by the registry stand-in see what a patient chose to show, and the patient see every look', async () => {
    await withLog(providersJourney(base, devMailMessages));
  });

  it('keeps what a passcode link leads to behind its passcode: no request without the view token', async () => {
    await withLog(linkAccessJourney(base, devMailMessages));
  });

  it('lets a patient pay for Basic in test mode and upload more at once: checkout, signed webhook (once), quota 2 → 5; a referral counts', async () => {
    // Its own product process: payments configured (stripe-mock behind a recorder), default quotas.
    const mock = await useStripeMock();
    const stripe = await recordStripeRequests(mock.url);
    const billingDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-billing-'));
    const secret = `whsec_${randomBytes(16).toString('hex')}`;
    const paying = startNode('apps/medfolio/src/main.js', [], { PORT: '0', DATA_DIR: billingDir, STRIPE_SECRET_KEY: 'sk_test_123e2e', STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_BASE: stripe.url });
    try {
      const url = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(paying.output())?.[1]);
      const mailbox: Mailbox = {
        textsTo: async (to) => (await call<{ to: string; text: string }[]>(url, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => m.text),
      };
      await billingJourney(url, mailbox, stripe, secret).catch((error: Error) => {
        throw new Error(`${error.message}\n--- product log (tail) ---\n${paying.output().slice(-4000)}`);
      });
    } finally {
      await paying.stop();
      await stripe.stop();
      await mock.stop();
      await rm(billingDir, { recursive: true, force: true });
    }
  });

  it('shows health trends: a C-CDA and a FHIR Bundle with glucose in two units on one line, a preview on Free, all on Plus (paid in test mode), the CSV, priority support', async () => {
    // Its own product process with payments configured (stripe-mock behind a recorder), as the billing test.
    const mock = await useStripeMock();
    const stripe = await recordStripeRequests(mock.url);
    const trendsDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-trends-'));
    const secret = `whsec_${randomBytes(16).toString('hex')}`;
    const product = startNode('apps/medfolio/src/main.js', [], { PORT: '0', DATA_DIR: trendsDir, STRIPE_SECRET_KEY: 'sk_test_123e2e', STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_BASE: stripe.url });
    try {
      const url = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(product.output())?.[1]);
      const mail = async () => (await call<{ to: string; subject: string; text: string }[]>(url, 'GET', DEV_MAIL_JSON)).body;
      const mailbox: Mailbox = { textsTo: async (to) => (await mail()).filter((m) => m.to === to).map((m) => m.text) };
      const patient = await signUp(url, mailbox, 'Tess');
      const figures = await trendsJourney(url, patient.token, () => subscribe(url, patient.token, stripe, secret, 'plus')).catch((error: Error) => {
        throw new Error(`${error.message}\n--- product log (tail) ---\n${product.output().slice(-4000)}`);
      });
      expect(figures.observations).toBeGreaterThan(20);
      // Support's copies: the Plus member's marked priority with the answer time, the others not.
      const copies = await waitFor('the support copies', async () => {
        const subjects = (await mail()).map((m) => m.subject).filter((subject) => subject.includes('from Trend '));
        return subjects.length === 3 ? subjects.sort() : undefined;
      });
      expect(copies).toEqual(['New contact message from Trend Anonymous', 'New contact message from Trend Free', '[PRIORITY] New contact message from Trend Plus']);
    } finally {
      await product.stop();
      await stripe.stop();
      await mock.stop();
      await rm(trendsDir, { recursive: true, force: true });
    }
  });

  it('without a Stripe key shows the plans and says payments are not configured', async () => {
    const plans = await call<{ payments_configured: boolean; plans: { id: string }[] }>(base, 'GET', '/api/plans/');
    expect(plans.body.payments_configured).toBe(false);
    expect(plans.body.plans.map((p) => p.id)).toEqual(['free', 'basic', 'standard', 'plus', 'pro']);
    const token = await tokenFor(dataDir, randomUUID());
    expect(await call(base, 'GET', '/api/membership/', undefined, token)).toMatchObject({ status: 200, body: { plan: 'free', status: 'none', payments_configured: false } });
    expect(await call(base, 'POST', '/api/stripe/checkout/', { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' }, token)).toMatchObject({
      status: 503,
      body: { message: 'Payments are not configured on this server, so plans cannot be bought here. You stay on the Free plan.' },
    });
    expect((await get(`${base}/api/health/`)).body).toMatchObject({ services: { billing: { status: 'ok' } } });
  });

  it('publishes OpenAPI with the paths written as the contract writes them', async () => {
    const doc = await get<{ paths: Record<string, unknown> }>(`${base}/api/docs-json`);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/history/', '/api/health/', '/api/upload/', '/api/get-document-download-link/{documentId}/']));
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
