/**
 * Stripe's API stand-in for billing's tests: stripe-mock (installed by `npm run tools:install`, see
 * libs/tooling/tools.d/stripe.sh). It checks every request against Stripe's OpenAPI specification
 * and answers with fixtures; it keeps nothing, so tests put a recording proxy in front of it
 * (`recordStripeRequests`) and assert what billing sent and how it used the answers.
 *
 * Where it comes from: STRIPE_MOCK_URL when set; else Testcontainers' stripe/stripe-mock image where
 * a Docker engine runs; else the installed binary on a free loopback port.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, constants } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { dockerAvailable } from './service-urls';
import { collectOutput, freePort, installedTool, stopProcess, waitUntilAnswering } from './tool-process';

export const STRIPE_MOCK_VERSION = 'v0.203.0';

export interface StripeMock {
  /** http://host:port of the API. */
  url: string;
  stop(): Promise<void>;
}

export async function useStripeMock(env: NodeJS.ProcessEnv = process.env): Promise<StripeMock> {
  if (env['STRIPE_MOCK_URL']) return { url: env['STRIPE_MOCK_URL'].replace(/\/$/, ''), stop: async () => undefined };
  if (dockerAvailable(env)) return startStripeMockContainer();
  return startStripeMock();
}

async function startStripeMockContainer(): Promise<StripeMock> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(`stripe/stripe-mock:${STRIPE_MOCK_VERSION}`).withExposedPorts(12111).withWaitStrategy(Wait.forListeningPorts()).start();
  return { url: `http://${container.getHost()}:${container.getMappedPort(12111)}`, stop: async () => void (await container.stop()) };
}

/** Starts the installed binary on a free loopback port. */
export async function startStripeMock(binary = installedTool('stripe-mock', 'STRIPE_MOCK_BIN')): Promise<StripeMock> {
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new Error(`stripe-mock not found at ${binary}: run \`npm run tools:install\` (or set STRIPE_MOCK_BIN or STRIPE_MOCK_URL)`);
  }
  const port = await freePort();
  const child = spawn(binary, ['-http-port', String(port), '-https-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child);
  try {
    await waitUntilAnswering(() => fetch(`${url}/v1/customers`, { headers: { authorization: 'Bearer sk_test_123' } }), child, 20_000);
  } catch (error) {
    await stop();
    throw new Error(`stripe-mock did not answer on ${url}: ${(error as Error).message}\n${output()}`);
  }
  return { url, stop };
}

export interface RecordedStripeRequest {
  method: string;
  /** e.g. /v1/subscriptions/sub_123 (no query). */
  path: string;
  /** Form fields (POST) or query fields (GET), keys as Stripe writes them (`items[0][price]`). */
  params: Record<string, string>;
  idempotencyKey?: string;
  status: number;
  /** The parsed answer. */
  response: Record<string, unknown>;
}

export interface StripeRecorder {
  url: string;
  requests: RecordedStripeRequest[];
  /** The requests matching a method and a path (a string prefix or a pattern). */
  find(method: string, pathMatch: string | RegExp): RecordedStripeRequest[];
  /**
   * Changes stripe-mock's answers until called again with null (stripe-mock keeps no state, so a test
   * that needs a state it never answers with, e.g. a subscription with a `pending_update`, edits its
   * fixture): `edit` gets each request and its answer, and returns the answer to send.
   */
  editAnswers(edit: ((request: Omit<RecordedStripeRequest, 'status' | 'response'>, answer: Record<string, unknown>) => Record<string, unknown>) | null): void;
  stop(): Promise<void>;
}

/** A proxy in front of stripe-mock that keeps every request and answer. */
export async function recordStripeRequests(targetUrl: string): Promise<StripeRecorder> {
  const requests: RecordedStripeRequest[] = [];
  let editor: Parameters<StripeRecorder['editAnswers']>[0] = null;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const target = new URL(req.url ?? '/', targetUrl);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(target, { method: req.method, headers, ...(body.length > 0 ? { body } : {}) });
    let text = await answer.text();
    const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? target.search : body.toString('utf8')));
    let response: Record<string, unknown> = {};
    try {
      response = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    const key = req.headers['idempotency-key'];
    const request = { method: req.method ?? 'GET', path: target.pathname, params, ...(typeof key === 'string' ? { idempotencyKey: key } : {}) };
    if (editor) {
      response = editor(request, response);
      text = JSON.stringify(response);
    }
    requests.push({ ...request, status: answer.status, response });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    find: (method, pathMatch) =>
      requests.filter((r) => r.method === method && (typeof pathMatch === 'string' ? r.path.startsWith(pathMatch) : pathMatch.test(r.path))),
    editAnswers: (edit) => {
      editor = edit;
    },
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

