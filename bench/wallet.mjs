// Wallet pass benchmark, in the product as `npm start` runs it (one process, embedded
// PGlite, in-process messaging, the encrypted filesystem store, the development signing chain).
//
//   npm run build && npm run bench:wallet        BENCH_REQUESTS=200 (warm, after BENCH_WARMUP=20)
//
// pass download: what the dashboard's Generate Apple Wallet Pass does: GET /api/get-pass-url/
//           (bearer) and then GET of the signed link it answers (the .pkpass bytes), one after the
//           other, timed together. Warm: the pass is signed and cached (its link unchanged).
// baseline: GET /api/profile/ (bearer, one request/reply to identity), in the same run, so the
//           figure is also a ratio: how many profile reads a pass download costs.
// cold: a new patient's first pass, end to end (the wallet link made, the pass signed and stored),
//           and the signing alone (passkit-generator: manifest, PKCS#7 with RSA 2048), median of 20.
// Goal: pass download p50 <= 50 ms warm. Results also go to bench/results/wallet-<date>.json.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { api, quantile, root, saveResults, signedInPatient, sleep, startOneProcess } from './lib.mjs';

const require = createRequire(import.meta.url);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);

const patient = async (base) => (await signedInPatient(base)).access;

/** GET /api/get-pass-url/ and the download it names; the time of both, and the pass's size. */
async function passDownload(base, token) {
  const started = performance.now();
  const { url } = await api(base, 'GET', '/api/get-pass-url/', undefined, token);
  const linked = performance.now();
  const response = await fetch(`${base}${url}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || response.headers.get('content-type') !== 'application/vnd.apple.pkpass') throw new Error(`download: ${response.status}`);
  const done = performance.now();
  return { ms: done - started, linkMs: linked - started, downloadMs: done - linked, bytes: bytes.length };
}

async function timed(n, work) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

/** passkit-generator alone: the same pass signed 20 times with a fresh development chain. */
async function signingAlone() {
  require('reflect-metadata');
  const { makeDevelopmentChain } = require(path.join(root, 'dist/apps/wallet/src/repositories/signing-material.repository.js'));
  const { signPass, passImages } = require(path.join(root, 'dist/apps/wallet/src/services/pass-signer.js'));
  const { passDesign } = require(path.join(root, 'dist/apps/wallet/src/services/pass-design.js'));
  const chainStarted = performance.now();
  const chain = makeDevelopmentChain('pass.bench.medfolio', 'BENCH', 'Medfolio');
  const chainMs = performance.now() - chainStarted;
  const imagesStarted = performance.now();
  await passImages();
  const imagesMs = performance.now() - imagesStarted;
  const view = passDesign({ serialNumber: randomUUID(), organizationName: 'Medfolio', holderName: 'Ada', showName: true, qrUrl: 'https://medfolio.test/summary/AbCdEfGhIjKlMnOpQrStUv', publicBaseUrl: 'https://medfolio.test', updatedAt: new Date() });
  const input = { view, passTypeIdentifier: 'pass.bench.medfolio', teamIdentifier: 'BENCH', authenticationToken: 'x'.repeat(32), webServiceUrl: 'https://medfolio.test/api/passkit/', material: { ...chain, origin: 'development', fingerprint: 'f' } };
  const first = await timed(1, () => signPass(input));
  const times = await timed(20, () => signPass(input));
  return { developmentChainMs: Math.round(chainMs), imagesMs: Math.round(imagesMs), firstSignMs: Math.round(first[0]), signMedianMs: quantile(times, 0.5) };
}

async function main() {
  const product = await startOneProcess('wallet', { RATE_LIMIT_PER_MINUTE: '100000' });
  const { base } = product;
  try {
    // The development chain is made just after start-up; give it that moment.
    await sleep(3000);
    const first = await patient(base);
    const cold = await passDownload(base, first);
    const second = await patient(base);
    const coldOther = await passDownload(base, second);

    await timed(warmup, () => passDownload(base, first));
    await timed(warmup, () => api(base, 'GET', '/api/profile/', undefined, first));
    // Alternate the two, so both see the same machine.
    const passTimes = [];
    const linkTimes = [];
    const downloadTimes = [];
    const profileTimes = [];
    for (let i = 0; i < requests; i++) {
      const one = await passDownload(base, first);
      passTimes.push(one.ms);
      linkTimes.push(one.linkMs);
      downloadTimes.push(one.downloadMs);
      profileTimes.push((await timed(1, () => api(base, 'GET', '/api/profile/', undefined, first)))[0]);
    }
    const signing = await signingAlone();
    const result = {
      requests,
      passBytes: cold.bytes,
      passDownload: { p50ms: quantile(passTimes, 0.5), p95ms: quantile(passTimes, 0.95) },
      getPassUrl: { p50ms: quantile(linkTimes, 0.5) },
      download: { p50ms: quantile(downloadTimes, 0.5) },
      profileBaseline: { p50ms: quantile(profileTimes, 0.5), p95ms: quantile(profileTimes, 0.95) },
      ratioP50: Number((quantile(passTimes, 0.5) / quantile(profileTimes, 0.5)).toFixed(2)),
      coldFirstPassMs: [Math.round(cold.ms), Math.round(coldOther.ms)],
      signing,
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`\npass download (get-pass-url + .pkpass) p50 ${result.passDownload.p50ms} ms (goal <= 50 ms), ${result.ratioP50}x a profile read; a new patient's first pass ${result.coldFirstPassMs.join(' / ')} ms; signing alone ${signing.signMedianMs} ms`);
    console.log(`Results: ${await saveResults('wallet', result)}`);
    if (result.passDownload.p50ms > 50) process.exitCode = 1;
  } finally {
    await product.stop();
  }
}

await main();
