import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';

/** Every file of a .pkpass (a zip), by name. */
export async function readPkpass(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await promisify<Buffer, yauzl.Options, yauzl.ZipFile>(yauzl.fromBuffer)(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error ?? new Error('no stream'));
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}

/** What is wrong with a .pkpass's manifest: a file missing from it, listed but absent, or with another SHA-1. */
export function manifestProblems(files: Map<string, Buffer>): string[] {
  const manifest = JSON.parse(files.get('manifest.json')?.toString('utf8') ?? '{}') as Record<string, string>;
  const problems: string[] = [];
  for (const [name, bytes] of files) {
    if (name === 'manifest.json' || name === 'signature') continue;
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    if (manifest[name] !== sha1) problems.push(`${name}: manifest says ${manifest[name] ?? 'nothing'}, the file's SHA-1 is ${sha1}`);
  }
  for (const name of Object.keys(manifest)) if (!files.has(name)) problems.push(`${name}: in the manifest, not in the pass`);
  return problems;
}

/**
 * Verifies the detached PKCS#7 signature of manifest.json with OpenSSL, as Wallet does:
 * `openssl smime -verify -binary -inform DER -in signature -content manifest.json -CAfile <ca>`.
 * Resolves with OpenSSL's output; rejects when the signature or its chain does not verify.
 */
export async function opensslVerifyPkpass(files: Map<string, Buffer>, caPem: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pkpass-'));
  try {
    await writeFile(path.join(dir, 'manifest.json'), files.get('manifest.json') ?? Buffer.alloc(0));
    await writeFile(path.join(dir, 'signature'), files.get('signature') ?? Buffer.alloc(0));
    await writeFile(path.join(dir, 'ca.pem'), caPem);
    const { stderr } = await promisify(execFile)('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', 'ca.pem', '-out', '/dev/null'], { cwd: dir });
    return stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Width and height of a PNG (from its IHDR). */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
