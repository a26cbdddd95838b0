// Storage cipher benchmark: the filesystem store's AES-256-GCM frames against libsodium's
// secretstream (XChaCha20-Poly1305, through sodium-native), sealing and opening the same bytes in
// the store's frame size, in the same process and run.
//
//   npm run build && node bench/storage-cipher.mjs
//   BENCH_MB=256 (default)  BENCH_RUNS=3 (default)  BENCH_CHUNK_KB=1024 (default: the store's frame)
//   Quick look: BENCH_MB=32 node bench/storage-cipher.mjs
//
// ours:         libs/storage's own functions (dist/libs/storage/src/fs/encrypted-format.js), the
//               ones EncryptStream and DecryptStream call per frame: a cipher per frame, the file
//               header and frame header as additional data, the ciphertext left in the pieces
//               the cipher returns (as the store writes them), and opened from one buffer per frame.
// secretstream: crypto_secretstream_xchacha20poly1305_push/pull, one message per frame, the same
//               file header as additional data of every message, FINAL on the last one.
// Both run in each round, in alternating order (so a load change on a shared machine hits both),
// over one random MiB repeated. Reported: the median of BENCH_RUNS rounds in MB/s (MiB/s) for
// sealing and opening, their spread (min-max), and secretstream/ours. Every opened frame is checked
// against the plaintext after timing. Results also go to bench/results/storage-cipher-<date>.json.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { median, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const sodium = require('sodium-native');
const format = require(path.join(root, 'dist/libs/storage/src/fs/encrypted-format.js'));

const MB = 1024 * 1024;
const megabytes = Number(process.env.BENCH_MB ?? 256);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const chunkSize = Number(process.env.BENCH_CHUNK_KB ?? 1024) * 1024;
const frames = Math.ceil((megabytes * MB) / chunkSize);
const masterKey = randomBytes(32);
const piece = randomBytes(chunkSize);
// The last frame must be shorter than a chunk (the store's rule): a few bytes short.
const lastPiece = piece.subarray(0, chunkSize - 7);
const plaintextOf = (i) => (i === frames - 1 ? lastPiece : piece);

const SS = {
  ABYTES: sodium.crypto_secretstream_xchacha20poly1305_ABYTES,
  HEADERBYTES: sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES,
  STATEBYTES: sodium.crypto_secretstream_xchacha20poly1305_STATEBYTES,
  MESSAGE: sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE,
  FINAL: sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL,
};

const seconds = (started) => Number(process.hrtime.bigint() - started) / 1e9;

/** Our format: frames sealed with sealFrameParts, opened with openFrame. */
function runOurs() {
  const header = format.createHeader('bench', 'application/pdf', chunkSize);
  const sealed = new Array(frames);
  let started = process.hrtime.bigint();
  const fileKey = format.deriveFileKey(masterKey, header, 'bench/blob');
  for (let i = 0; i < frames; i += 1)
    sealed[i] = format.sealFrameParts(fileKey, header, i, i === frames - 1, [plaintextOf(i)]);
  const seal = seconds(started);
  // The store reads a frame into one buffer before opening it (ByteQueue.take); not timed.
  const whole = sealed.map((parts) => Buffer.concat(parts));
  const opened = new Array(frames);
  started = process.hrtime.bigint();
  const readKey = format.deriveFileKey(masterKey, format.parseHeader(header.bytes), 'bench/blob');
  for (let i = 0; i < frames; i += 1) opened[i] = format.openFrame(readKey, header, i, whole[i]);
  const open = seconds(started);
  check('ours', opened);
  return { seal, open };
}

/** secretstream: one message per frame, the file header as additional data. */
function runSecretstream() {
  const fileHeader = format.createHeader('bench', 'application/pdf', chunkSize).bytes;
  const sealed = new Array(frames);
  const streamHeader = Buffer.alloc(SS.HEADERBYTES);
  let started = process.hrtime.bigint();
  const push = Buffer.alloc(SS.STATEBYTES);
  sodium.crypto_secretstream_xchacha20poly1305_init_push(push, streamHeader, masterKey);
  for (let i = 0; i < frames; i += 1) {
    const plaintext = plaintextOf(i);
    const out = Buffer.allocUnsafe(plaintext.length + SS.ABYTES);
    sodium.crypto_secretstream_xchacha20poly1305_push(
      push,
      out,
      plaintext,
      fileHeader,
      i === frames - 1 ? SS.FINAL : SS.MESSAGE,
    );
    sealed[i] = out;
  }
  const seal = seconds(started);
  const opened = new Array(frames);
  const tag = Buffer.alloc(1);
  started = process.hrtime.bigint();
  const pull = Buffer.alloc(SS.STATEBYTES);
  sodium.crypto_secretstream_xchacha20poly1305_init_pull(pull, streamHeader, masterKey);
  for (let i = 0; i < frames; i += 1) {
    const out = Buffer.allocUnsafe(sealed[i].length - SS.ABYTES);
    sodium.crypto_secretstream_xchacha20poly1305_pull(pull, out, tag, sealed[i], fileHeader);
    if ((tag[0] === SS.FINAL) !== (i === frames - 1)) throw new Error('secretstream: FINAL tag misplaced');
    opened[i] = out;
  }
  const open = seconds(started);
  check('secretstream', opened);
  return { seal, open };
}

function check(name, opened) {
  for (let i = 0; i < frames; i += 1) {
    if (!opened[i].equals(plaintextOf(i))) throw new Error(`${name}: frame ${i} did not open to its plaintext`);
  }
}

const rate = (s) => (frames * chunkSize) / MB / s;
const results = { ours: { seal: [], open: [] }, secretstream: { seal: [], open: [] } };
const constructions = { ours: runOurs, secretstream: runSecretstream };

// One unmeasured round of each first: JIT, first allocations of the buffers' sizes.
runOurs();
runSecretstream();
for (let round = 0; round < runs; round += 1) {
  const order = round % 2 === 0 ? ['ours', 'secretstream'] : ['secretstream', 'ours'];
  for (const name of order) {
    const { seal, open } = constructions[name]();
    results[name].seal.push(rate(seal));
    results[name].open.push(rate(open));
    globalThis.gc?.();
  }
}

const summary = {};
for (const name of Object.keys(results)) {
  summary[name] = {};
  for (const step of ['seal', 'open']) {
    const values = results[name][step];
    summary[name][step] = { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values };
  }
}
const ratio = {
  seal: summary.secretstream.seal.median / summary.ours.seal.median,
  open: summary.secretstream.open.median / summary.ours.open.median,
};

const f = (n) => n.toFixed(0).padStart(5);
console.log(
  `${megabytes} MiB in ${chunkSize / 1024} KiB frames, ${runs} rounds, Node ${process.version}, OpenSSL ${process.versions.openssl}, libsodium via sodium-native`,
);
console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
console.log('                       seal MB/s (min-max)        open MB/s (min-max)');
for (const name of Object.keys(summary)) {
  const { seal, open } = summary[name];
  console.log(
    `${name.padEnd(22)} ${f(seal.median)} (${f(seal.min)}-${f(seal.max)})      ${f(open.median)} (${f(open.min)}-${f(open.max)})`,
  );
}
console.log(`secretstream / ours     ${ratio.seal.toFixed(2)}                      ${ratio.open.toFixed(2)}`);

const out = path.join(root, 'bench/results');
await mkdir(out, { recursive: true });
const file = path.join(out, `storage-cipher-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await writeFile(
  file,
  `${JSON.stringify({ megabytes, chunkSize, runs, node: process.version, openssl: process.versions.openssl, loadavg: os.loadavg(), summary, ratio }, null, 2)}\n`,
);
console.log(`written to ${path.relative(root, file)}`);
