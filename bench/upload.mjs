// Upload benchmark: a 256 MB document through the gateway and the documents service into storage,
// against the same bytes put straight into the same store, in the same run, on the same machine.
//
//   npm run build && npm run bench:upload            (PostgreSQL from DATABASE_URL, default the local one)
//   BENCH_STORAGE=filesystem|s3|both (default both)   BENCH_RUNS=3   BENCH_MB=256
//   BENCH_NODE_FLAGS='--max-semi-space-size=1' (default, as the chart runs both services; '' for Node's defaults)
//   BENCH_CPU_PROF=<dir>: gateway and documents run with --cpu-prof, profiles written to <dir> when they stop
//   GC_MARKING_TRIGGERS=v8 (passed on to both services: V8's own marking rule, to compare; default 80,95)
//
// upload:   node:http client -> gateway (its own process; JWT check, multipart passed on as it
//           arrives) -> documents (its own process; parses, sniffs, checks the structure, hashes,
//           stores) -> storage: the encrypted filesystem store (AES-256-GCM, fsync) on this disk,
//           or S3 (versitygw, from `npm run tools:install`, writing to this disk). The documents
//           row and its audit record commit before the answer. Messaging is in-process (no NATS):
//           the upload path uses none of it but the audit publish.
// reference (the goal's): the same number of bytes from memory straight into the store
//           (libs/storage's put, in the bench process, with the services' settings: hashing,
//           encryption or multipart, fsync; for S3 the server's own work too), without HTTP,
//           parsing or checks. Measured right before each upload.
// shown, not aimed at: the same file copied on the same disk (its speed swings between 230 and
//           850 MB/s on these machines), and the same upload to a bare node:http server in the
//           bench process that drops the bytes (Node's HTTP receive path alone).
// Reported: throughput ratio upload/store alone (goal >= 0.75, each the median of BENCH_RUNS runs),
// the growth of the resident memory of the gateway and documents processes while the file goes
// through (goal <= 64 MB), sampled every 20 ms from /proc, and the CPU time each of them spent on it.
// Results also go to bench/results/upload-<date>.json.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { cpuSeconds, freePort, median, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const runs = Number(process.env.BENCH_RUNS ?? 3);
const megabytes = Number(process.env.BENCH_MB ?? 256);
const size = megabytes * 1024 * 1024;
const storages = (process.env.BENCH_STORAGE ?? 'both') === 'both' ? ['filesystem', 's3'] : [process.env.BENCH_STORAGE];
const MB = 1024 * 1024;
/** Node flags of the gateway and documents processes: the chart's NODE_OPTIONS for them (BENCH_NODE_FLAGS overrides; '' for Node's defaults). */
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=1').split(' ').filter(Boolean);
const cpuProfileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const profileFlags = (label) => (cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`, `--cpu-prof-name=${label}-${Date.now()}.cpuprofile`] : []);
const UPLOAD_GOAL = 0.75;

function start(args, env, label) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
  // BENCH_LOG_DIR=<dir>: each process's whole output also goes to <dir>/<label>.log (with
  // BENCH_NODE_FLAGS='--trace-gc', say, to see what the collector does during an upload).
  if (process.env.BENCH_LOG_DIR) {
    const log = createWriteStream(path.join(process.env.BENCH_LOG_DIR, `${label}.log`));
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  child.label = label;
  child.output = () => output;
  return child;
}

async function waitOk(url, child) {
  for (let i = 0; i < 240; i += 1) {
    if (child && child.exitCode !== null) throw new Error(`${child.label} exited:\n${child.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready: ${url}`);
}

async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** Samples the resident memory of the processes every 20 ms until stopped; returns the peaks. */
function sampleRss(pids) {
  const peaks = Object.fromEntries(pids.map((pid) => [pid, 0]));
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const pid of pids) peaks[pid] = Math.max(peaks[pid], await rssOf(pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return peaks;
  };
}

/** A PDF of `bytes` bytes: a valid frame around random data (incompressible, like a scan). */
async function makeSource(file, bytes) {
  const head = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Length 0 >>\nstream\n', 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  const handle = await open(file, 'w');
  await handle.write(head);
  let left = bytes - head.length - tail.length;
  const block = randomBytes(8 * MB);
  while (left > 0) {
    const piece = block.subarray(0, Math.min(block.length, left));
    await handle.write(piece);
    left -= piece.length;
  }
  await handle.write(tail);
  await handle.sync();
  await handle.close();
}

/** Copies the file with streams and fsyncs the copy: seconds taken. */
async function copy(source, target) {
  const started = process.hrtime.bigint();
  await pipeline(
    createReadStream(source, { highWaterMark: MB }),
    createWriteStream(target, { flush: true, highWaterMark: MB }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await rm(target);
  return seconds;
}

/**
 * POSTs the file as multipart/form-data (field "files") through the gateway: seconds taken. curl is
 * the client when installed (it costs the machine less CPU than a Node client, leaving the two
 * cores to the services being measured); otherwise node:http.
 */
async function upload(base, token, source, name, bytes) {
  if (await hasCurl) return uploadWithCurl(base, token, source, name);
  return uploadWithNode(base, token, source, name, bytes);
}

const hasCurl = new Promise((resolve) => {
  const probe = spawn('curl', ['--version'], { stdio: 'ignore' });
  probe.on('error', () => resolve(false));
  probe.on('exit', (code) => resolve(code === 0));
});

async function uploadWithCurl(base, token, source, name) {
  const started = process.hrtime.bigint();
  const child = spawn('curl', [
    '-sS',
    '-H',
    'expect:',
    '-H',
    `authorization: Bearer ${token}`,
    '-F',
    `files=@${source};filename=${name};type=application/pdf`,
    '-w',
    '\\n%{http_code}',
    `${base}/api/upload/`,
  ]);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  await once(child, 'exit');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!output.trim().endsWith('201')) throw new Error(`upload failed: ${output.slice(-500)}`);
  return seconds;
}

async function uploadWithNode(base, token, source, name, bytes) {
  const boundary = `----medfolio-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = process.hrtime.bigint();
  const answer = await new Promise((resolve, reject) => {
    const req = request(`${base}/api/upload/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + bytes + tail.length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.write(head);
    const file = createReadStream(source, { highWaterMark: MB });
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
    file.on('error', reject);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return seconds;
}

async function startS3(dataDir) {
  const binary =
    process.env.VERSITYGW_BIN ??
    path.join(
      process.env.MEDFOLIO_TOOLS_DIR ?? path.join(homedir(), '.cache', 'medfolio', 'tools'),
      'bin',
      'versitygw',
    );
  await access(binary);
  const port = await freePort();
  const accessKeyId = `bench${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  await mkdir(path.join(dataDir, 'medfolio-bench'), { recursive: true });
  const child = spawn(binary, ['--port', `127.0.0.1:${port}`, '--region', 'us-east-1', '--quiet', 'posix', dataDir], {
    env: { ...process.env, ROOT_ACCESS_KEY: accessKeyId, ROOT_SECRET_KEY: secretAccessKey },
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    try {
      await (await fetch(endpoint)).arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    child,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: 'medfolio-bench',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
  };
}

/**
 * Puts `size` bytes from memory (one random MiB repeated) straight into a store built by libs/storage
 * with the services' settings: seconds taken. The blob is deleted afterwards.
 */
async function storeAlone(blobStorageConfig, key) {
  require('reflect-metadata'); // libs/storage loads the contracts' decorated classes
  const { createBlobStorage } = require(path.join(root, 'dist/libs/storage/src/index.js'));
  const { Readable } = await import('node:stream');
  const storage = await createBlobStorage(blobStorageConfig);
  const piece = randomBytes(MB);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await storage.put(key, Readable.from((function* () { for (let i = 0; i < megabytes; i += 1) yield piece; })()), {
    contentType: 'application/pdf',
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  await storage.delete(key);
  storage.destroy?.();
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

/**
 * A bare node:http server that counts and drops what it receives: the same upload sent to it (one
 * hop, no parsing, checking or storage) shows what Node's HTTP receive path alone costs on this
 * machine, the ceiling for any service written in Node, so the upload's ratio can be read against it.
 */
async function startSink() {
  const { createServer: createHttpServer } = await import('node:http');
  const server = createHttpServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => res.writeHead(201).end('{}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

const children = [];
const databases = [];
const admin = new pg.Client({ connectionString: adminUrl });
let sink;
const work = await mkdtemp(path.join(tmpdir(), 'medfolio-bench-upload-'));
try {
  await admin.connect();
  const source = path.join(work, 'source.pdf');
  await makeSource(source, size);
  const { loadOrCreateSigningKeys, signAccessToken } = require(path.join(root, 'dist/libs/security/src/index.js'));
  const results = { megabytes, runs, nodeFlags, storages: {} };
  sink = await startSink();

  for (const storage of storages) {
    const dataDir = path.join(work, `data-${storage}`);
    await mkdir(dataDir, { recursive: true });
    const database = `medfolio_bench_upload_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${database}`);
    databases.push(database);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const common = {
      MEDFOLIO_MODE: 'service',
      DATA_DIR: dataDir,
      STORAGE_DIR: path.join(work, `files-${storage}`),
      INTERNAL_API_TOKEN: randomBytes(32).toString('base64url'),
    };
    let s3Env = {};
    let s3Server;
    if (storage === 's3') {
      const s3 = await startS3(path.join(work, 's3'));
      children.push(s3.child);
      s3Env = s3.env;
      s3Server = s3.child;
    }
    // The store the services use, with the same settings, for the "storage alone" reference.
    const storeConfig =
      storage === 's3'
        ? {
            s3: {
              endpoint: s3Env.S3_ENDPOINT,
              region: s3Env.S3_REGION,
              bucket: s3Env.S3_BUCKET,
              accessKeyId: s3Env.S3_ACCESS_KEY_ID,
              secretAccessKey: s3Env.S3_SECRET_ACCESS_KEY,
              forcePathStyle: true,
              serverSideEncryption: process.env.S3_SSE ?? 'AES256',
              signPayload: /^(1|true|yes|on)$/i.test(process.env.S3_SIGN_PAYLOAD ?? ''),
            },
          }
        : {
            filesystem: {
              directory: path.join(work, 'files-store-alone'),
              encryptionKeys: [{ id: 'bench', key: randomBytes(32) }],
              urlSigningKey: randomBytes(32).toString('base64url'),
            },
          };
    const documentsPort = await freePort();
    const gatewayPort = await freePort();
    const documents = start(
      [...nodeFlags, ...profileFlags(`documents-${storage}`), 'dist/apps/documents/src/main.js'],
      {
        ...common,
        ...s3Env,
        DATABASE_URL: url.toString(),
        PORT: String(documentsPort),
        DOCUMENT_MAX_FILE_BYTES: String(size + MB),
        DOCUMENT_QUOTA_FREE: 'unlimited',
      },
      'documents',
    );
    const gateway = start(
      [...nodeFlags, ...profileFlags(`gateway-${storage}`), 'dist/apps/gateway/src/main.js'],
      {
        ...common,
        ...s3Env,
        PORT: String(gatewayPort),
        DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${documentsPort}`,
        RATE_LIMIT_PER_MINUTE: '100000',
      },
      'gateway',
    );
    children.push(documents, gateway);
    await waitOk(`http://127.0.0.1:${documentsPort}/health/live`, documents);
    await waitOk(`http://127.0.0.1:${gatewayPort}/health/live`, gateway);
    const base = `http://127.0.0.1:${gatewayPort}`;
    const token = await signAccessToken((await loadOrCreateSigningKeys(dataDir)).current, {
      sub: randomUUID(),
      roles: ['patient'],
      sid: randomUUID(),
    });

    // Warm-up: a small upload loads every module of the path (parsers, checks, storage client).
    const small = path.join(work, 'small.pdf');
    await makeSource(small, MB);
    await upload(base, token, small, 'warm-up.pdf', MB);
    await new Promise((r) => setTimeout(r, 500));

    const figures = {
      uploadSeconds: [],
      copySeconds: [],
      bareNodeSinkSeconds: [],
      storeAloneSeconds: [],
      storeAloneCpuSeconds: [],
      gatewayRssGrowthMB: [],
      documentsRssGrowthMB: [],
      gatewayCpuSeconds: [],
      documentsCpuSeconds: [],
      ...(s3Server ? { s3ServerCpuSeconds: [] } : {}),
    };
    for (let run = 0; run < runs; run += 1) {
      figures.copySeconds.push(await copy(source, path.join(work, `copy-${storage}-${run}.pdf`)));
      figures.bareNodeSinkSeconds.push(await upload(sink.base, token, source, `sink-${run}.pdf`, size));
      const alone = await storeAlone(storeConfig, `bench/store-alone-${run}.pdf`);
      figures.storeAloneSeconds.push(alone.seconds);
      figures.storeAloneCpuSeconds.push(alone.cpuSeconds);
      const before = { gateway: await rssOf(gateway.pid), documents: await rssOf(documents.pid) };
      const cpuBefore = {
        gateway: await cpuSeconds(gateway.pid),
        documents: await cpuSeconds(documents.pid),
        s3Server: s3Server ? await cpuSeconds(s3Server.pid) : 0,
      };
      const stop = sampleRss([gateway.pid, documents.pid]);
      figures.uploadSeconds.push(await upload(base, token, source, `scan-${run}.pdf`, size));
      const peaks = await stop();
      figures.gatewayCpuSeconds.push((await cpuSeconds(gateway.pid)) - cpuBefore.gateway);
      figures.documentsCpuSeconds.push((await cpuSeconds(documents.pid)) - cpuBefore.documents);
      if (s3Server) figures.s3ServerCpuSeconds.push((await cpuSeconds(s3Server.pid)) - cpuBefore.s3Server);
      figures.gatewayRssGrowthMB.push((peaks[gateway.pid] - before.gateway) / MB);
      figures.documentsRssGrowthMB.push((peaks[documents.pid] - before.documents) / MB);
    }
    const copyMBs = megabytes / median(figures.copySeconds);
    const uploadMBs = megabytes / median(figures.uploadSeconds);
    const sinkMBs = megabytes / median(figures.bareNodeSinkSeconds);
    const storeMBs = megabytes / median(figures.storeAloneSeconds);
    const summary = {
      ...figures,
      copyMBps: copyMBs,
      uploadMBps: uploadMBs,
      bareNodeSinkMBps: sinkMBs,
      storeAloneMBps: storeMBs,
      /** The goal's ratio: upload / store alone (>= 0.75). */
      uploadToStoreRatio: uploadMBs / storeMBs,
      uploadToStoreRatioPerRun: figures.uploadSeconds.map((seconds, i) => figures.storeAloneSeconds[i] / seconds),
      /** Shown only: against the copy and the bare Node server. */
      uploadToCopyRatio: uploadMBs / copyMBs,
      bareNodeSinkRatio: sinkMBs / copyMBs,
      storeAloneToCopyRatio: storeMBs / copyMBs,
      gatewayRssGrowthMaxMB: Math.max(...figures.gatewayRssGrowthMB),
      documentsRssGrowthMaxMB: Math.max(...figures.documentsRssGrowthMB),
    };
    results.storages[storage] = summary;
    const perRun = summary.uploadToStoreRatioPerRun.map((r) => r.toFixed(2)).join(', ');
    console.log(
      `${storage.padEnd(10)} upload ${uploadMBs.toFixed(0).padStart(4)} MB/s   store alone ${storeMBs.toFixed(0).padStart(4)} MB/s   ` +
        `ratio ${summary.uploadToStoreRatio.toFixed(2)} (goal >= ${UPLOAD_GOAL}; per run ${perRun})   ` +
        `RSS growth gateway ${summary.gatewayRssGrowthMaxMB.toFixed(1)} MB, documents ${summary.documentsRssGrowthMaxMB.toFixed(1)} MB (goal <= 64)   ` +
        `CPU s per upload gateway ${median(figures.gatewayCpuSeconds).toFixed(2)}, documents ${median(figures.documentsCpuSeconds).toFixed(2)}` +
        (s3Server ? `, S3 server ${median(figures.s3ServerCpuSeconds).toFixed(2)}` : '') +
        ` (store alone ${median(figures.storeAloneCpuSeconds).toFixed(2)} in the bench process)`,
    );
    console.log(
      `${''.padEnd(10)} shown: copy on this disk ${copyMBs.toFixed(0)} MB/s (upload/copy ${summary.uploadToCopyRatio.toFixed(2)}); ` +
        `a bare node:http server dropping the file ${sinkMBs.toFixed(0)} MB/s`,
    );
    for (const child of [gateway, documents]) child.kill('SIGTERM');
    await Promise.all([gateway, documents].map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  }
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `upload-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(results, null, 2));
  console.log(`written ${path.relative(root, file)}`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  for (const database of databases)
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
  sink?.server.close();
}
