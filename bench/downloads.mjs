// Download benchmark: who should serve the signed download links (/api/files/...)?
//
//   npm run build && npm run bench:downloads        BENCH_SECONDS=10 (per measurement)   BENCH_ROUNDS=2
//
// gateway serves (today): client -> gateway process: checks the signed link, reads the blob from
//           the store (here the encrypted filesystem store: AES-256-GCM decryption) and streams it.
// service serves:         client -> gateway process -> the owning service's process over loopback
//           HTTP (keep-alive): the service checks the link, reads and streams the blob; the gateway
//           only pipes the response (status, headers, body) back.
// Both use the same code for the link check and the store (dist/libs/storage) on bare Fastify
// servers, one process each, so the difference is the extra hop alone (Nest's routing costs both
// the same few microseconds). Files: a 20 MB document (4 connections) and a 6 KB thumbnail (64
// connections), autocannon for BENCH_SECONDS each, the options alternating, BENCH_ROUNDS rounds (node:http loops for the
// document: autocannon's response parser, not the servers, limited 20 MB bodies).
// Reported per option: requests/s, MB/s, latency p50/p99, CPU seconds of the server processes per
// 100 requests. Results also go to bench/results/downloads-<date>.json.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { cpuSeconds } from './lib.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
// The storage lib's contracts (DomainError) use decorator metadata.
const storageLib = () => (require('reflect-metadata'), require(path.join(root, 'dist/libs/storage/src/index.js')));
const MB = 1024 * 1024;

/** A child process: one server. argv: role, port, [upstream port]; the store's settings in env. */
async function serve(role, port, upstreamPort) {
  const Fastify = require('fastify');
  const app = Fastify({ logger: false });
  if (role === 'proxy') {
    // The gateway of "service serves": passes the request on, pipes the answer back.
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    app.get('/api/files/*', (req, reply) => {
      const upstream = request(
        { host: '127.0.0.1', port: upstreamPort, path: req.url.replace('/api/files/', '/internal/files/'), agent },
        (response) => {
          reply.code(response.statusCode ?? 502);
          for (const name of ['content-type', 'content-length', 'content-disposition', 'cache-control', 'x-content-type-options']) {
            if (response.headers[name] !== undefined) reply.header(name, response.headers[name]);
          }
          reply.send(response);
        },
      );
      upstream.on('error', (error) => reply.code(502).send({ message: String(error) }));
      upstream.end();
      return reply;
    });
  } else {
    // The files route, as apps/gateway/src/controllers/files.controller.ts serves it.
    const { FilesystemBlobStorage, verifySignedUrl, attachmentContentDisposition } = storageLib();
    const config = JSON.parse(process.env.BENCH_STORE);
    const storage = new FilesystemBlobStorage({ ...config, encryptionKeys: [{ id: 'k1', key: Buffer.from(config.key, 'base64') }] });
    await storage.init();
    const basePath = role === 'service' ? '/internal/files/' : '/api/files/';
    app.get(`${basePath}*`, async (req, reply) => {
      const verdict = verifySignedUrl(req.url, { signingKey: config.urlSigningKey, basePath });
      if (!verdict.valid) return reply.code(404).send({ message: 'Not found.' });
      const stream = await storage.get(verdict.key);
      return reply
        .header('content-type', verdict.contentType ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', verdict.filename ? attachmentContentDisposition(verdict.filename) : 'inline')
        .send(stream);
    });
  }
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.('ready');
}

function startServer(role, port, store, upstreamPort) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, role, String(port), String(upstreamPort ?? '')], {
    env: { ...process.env, BENCH_STORE: JSON.stringify(store) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/**
 * Small files: autocannon. Large ones: `connections` node:http loops that read and drop each body
 * (autocannon's own response parser, not the servers, was the limit for 20 MB bodies).
 */
async function load(url, connections, seconds, large) {
  if (!large) {
    const result = await require('autocannon')({ url, connections, duration: seconds, pipelining: 1 });
    if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { total: result.requests.total, bytes: result.throughput.total, latencies: null, p50: result.latency.p50, p99: result.latency.p99 };
  }
  const agent = new Agent({ keepAlive: true });
  const latencies = [];
  let bytes = 0;
  const until = Date.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      request(url, { agent }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve(latencies.push(performance.now() - started)));
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  await Promise.all(Array.from({ length: connections }, async () => { while (Date.now() < until) await one(); }));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { total: latencies.length, bytes, p50: at(0.5), p99: at(0.99) };
}

async function measure(url, connections, seconds, pids, large) {
  const before = await Promise.all(pids.map(cpuSeconds));
  const started = performance.now();
  const result = await load(url, connections, seconds, large);
  const elapsed = (performance.now() - started) / 1000;
  const after = await Promise.all(pids.map(cpuSeconds));
  const cpu = after.reduce((sum, value, i) => sum + value - before[i], 0);
  return {
    requestsPerSecond: Math.round(result.total / elapsed),
    megabytesPerSecond: Math.round(result.bytes / MB / elapsed),
    p50ms: result.p50,
    p99ms: result.p99,
    cpuSecondsPer100Requests: Number(((cpu / result.total) * 100).toFixed(3)),
  };
}

async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const directory = await mkdtemp(path.join(tmpdir(), 'bench-downloads-'));
  const key = randomBytes(32);
  const store = { directory, urlSigningKey: randomBytes(32).toString('base64url'), key: key.toString('base64') };
  const { FilesystemBlobStorage, signDownloadUrl } = storageLib();
  const storage = new FilesystemBlobStorage({ directory, urlSigningKey: store.urlSigningKey, encryptionKeys: [{ id: 'k1', key }] });
  await storage.init();
  const files = { document: { key: 'documents/bench/report.pdf', size: 20 * MB, connections: 4 }, thumbnail: { key: 'thumbnails/bench/t.webp', size: 6 * 1024, connections: 64 } };
  for (const file of Object.values(files)) await storage.put(file.key, Readable.from([randomBytes(file.size)]), { contentType: 'application/octet-stream' });
  const link = (file, basePath) =>
    signDownloadUrl({ key: file.key, expiresAt: new Date(Date.now() + 3600_000), filename: path.basename(file.key), contentType: 'application/pdf', signingKey: store.urlSigningKey, basePath });

  const [gatewayPort, proxyPort, servicePort] = [39411, 39412, 39413];
  const gateway = await startServer('gateway', gatewayPort, store);
  const service = await startServer('service', servicePort, store);
  const proxy = await startServer('proxy', proxyPort, store, servicePort);
  const options = {
    'gateway serves': { base: `http://127.0.0.1:${gatewayPort}`, pids: [gateway.pid] },
    'service serves': { base: `http://127.0.0.1:${proxyPort}`, pids: [proxy.pid, service.pid] },
  };
  const results = [];
  try {
    for (let round = 1; round <= rounds; round += 1) {
      for (const [fileName, file] of Object.entries(files)) {
        for (const [option, { base, pids }] of Object.entries(options)) {
          const figures = await measure(`${base}${link(file, '/api/files/')}`, file.connections, seconds, pids, file.size > MB);
          results.push({ round, file: fileName, option, ...figures });
          console.log(JSON.stringify(results.at(-1)));
        }
      }
    }
  } finally {
    for (const child of [gateway, service, proxy]) child.kill();
    await rm(directory, { recursive: true, force: true });
  }
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, `bench/results/downloads-${new Date().toISOString().slice(0, 10)}.json`), `${JSON.stringify(results, null, 2)}\n`);
}

const [role, port, upstreamPort] = process.argv.slice(2);
if (role) await serve(role, Number(port), Number(upstreamPort));
else await main();
