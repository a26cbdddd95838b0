import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
// The browser tests' Node side (never bundled into the web app) uses the shared tool helpers.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { collectOutput, freePort, installedTool, stopProcess, waitUntilAnswering } from '../../../../libs/testing/src/tool-process';

const root = path.resolve(__dirname, '../../../..');

/**
 * A second product, like the one global-setup starts (dist/apps/medfolio on embedded defaults, a
 * fresh data directory) but with payments configured against stripe-mock (behind a recorder), for
 * journeys that need a paid plan (the Family plan's household). The shared product stays unpaid:
 * billing.pw.ts checks what a server without payments says.
 */
export interface PayingProduct {
  baseUrl: string;
  devMailKey: string;
  /** Subscribes the account of `token` to `tier` as Stripe would: checkout, then the signed webhook. */
  subscribe(token: string, tier: 'basic' | 'standard' | 'plus' | 'pro'): Promise<void>;
  /** The newest e-mail to `to` whose text matches `pattern`: the first group, or the whole match. */
  mailMatch(to: string, pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
}

async function poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A Stripe subscription stripe-mock created: what the webhook names (stripe-mock keeps nothing itself). */
interface CreatedSubscription {
  id: string;
  customer: string;
}

/**
 * stripe-mock (installed by `npm run tools:install`) on a free port, behind a small proxy that keeps
 * the subscriptions it creates. (libs/testing's recorder does this too, but its types are Node's,
 * and this file is type-checked with the web app's DOM types.)
 */
async function stripeStandIn(): Promise<{ url: string; subscriptions: CreatedSubscription[]; stop(): Promise<void> }> {
  const binary = installedTool('stripe-mock', 'STRIPE_MOCK_BIN');
  const mockPort = await freePort();
  const child = spawn(binary, ['-http-port', String(mockPort), '-https-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const mockUrl = `http://127.0.0.1:${mockPort}`;
  try {
    await waitUntilAnswering(() => fetch(`${mockUrl}/v1/customers`, { headers: { authorization: 'Bearer sk_test_123' } }), child, 20_000);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`stripe-mock (${binary}) did not answer: ${(error as Error).message}\n${output()}`);
  }
  const subscriptions: CreatedSubscription[] = [];
  const proxy = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
        }
        const target = new URL(req.url ?? '/', mockUrl);
        const answer = await fetch(target, { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) });
        const text = await answer.text();
        if (req.method === 'POST' && target.pathname === '/v1/subscriptions' && answer.ok) {
          const created = JSON.parse(text) as { id: string };
          subscriptions.push({ id: created.id, customer: new URLSearchParams(body.toString('utf8')).get('customer') ?? '' });
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })();
    });
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const address = proxy.address();
  if (!address || typeof address === 'string') throw new Error('no port for the Stripe proxy');
  return {
    url: `http://127.0.0.1:${address.port}`,
    subscriptions,
    stop: async () => {
      proxy.closeAllConnections();
      proxy.close();
      await stopProcess(child);
    },
  };
}

export async function startPayingProduct(): Promise<PayingProduct> {
  const stripe = await stripeStandIn();
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const devMailKey = `paying-${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'medfolio-web-e2e-paying-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'S3_BUCKET', 'JWT_JWKS_URL']) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_BASE_URL: baseUrl,
    RATE_LIMIT_PER_MINUTE: '100000',
    DEV_MAIL_KEY: devMailKey,
    STRIPE_SECRET_KEY: 'sk_test_webe2efamily',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: stripe.url,
  });
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/apps/medfolio/src/main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  const stop = async () => {
    server.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (code === 'timeout') server.kill('SIGKILL');
    await stripe.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (await fetch(`${baseUrl}/api/health/`).then((r) => r.ok, () => false)) break;
    if (server.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The paying product did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const api = async (method: string, route: string, token: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };

  return {
    baseUrl,
    devMailKey,
    stop,
    async subscribe(token, tier) {
      const before = stripe.subscriptions.length;
      const checkout = await api('POST', '/api/stripe/checkout/', token, { price_id: `price_${tier}_monthly`, tier, mode: 'monthly' });
      if (checkout.status !== 200) throw new Error(`checkout: ${checkout.status} ${JSON.stringify(checkout.body)}`);
      const created = stripe.subscriptions[before];
      if (!created) throw new Error('no subscription was created in Stripe');
      const now = Math.floor(Date.now() / 1000);
      const payload = JSON.stringify({
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        type: 'customer.subscription.updated',
        created: now,
        data: {
          object: {
            id: created.id,
            object: 'subscription',
            customer: created.customer,
            status: 'active',
            cancel_at_period_end: false,
            metadata: {},
            items: { object: 'list', data: [{ id: 'si_family', current_period_end: now + 30 * 86400, price: { id: 'price_family', lookup_key: `price_${tier}_monthly`, metadata: {} } }] },
          },
        },
      });
      const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
      const delivered = await fetch(`${baseUrl}/api/stripe/webhook/`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } });
      if (delivered.status !== 200) throw new Error(`webhook: ${delivered.status} ${await delivered.text()}`);
      await poll(`the ${tier} plan`, async () => ((await api('GET', '/api/membership/', token)).body['plan'] === tier ? true : undefined));
    },
    async mailMatch(to, pattern) {
      return poll(`an e-mail to ${to} matching ${pattern}`, async () => {
        const response = await fetch(`${baseUrl}/dev/mail.json`, { headers: { 'x-dev-mail-key': devMailKey } });
        const mail = ((await response.json()) as { to: string; text: string; sent_at: string }[])
          .filter((m) => m.to.toLowerCase() === to.toLowerCase())
          .sort((a, b) => b.sent_at.localeCompare(a.sent_at));
        for (const m of mail) {
          const match = pattern.exec(m.text);
          if (match) return match[1] ?? match[0];
        }
        return undefined;
      });
    },
  };
}
