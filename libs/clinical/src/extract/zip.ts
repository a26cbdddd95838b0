import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

/** Entries smaller than this are not judged by their ratio: a 10 KiB text compresses 100:1 honestly. */
const RATIO_FLOOR = 1024 * 1024;
/** Files that come with portal exports but hold no record (the C-CDA's stylesheet, viewers): passed over quietly. */
const NOT_RECORDS = /\.(xsl|xslt|css|js|dtd|xsd|html?|ico|gif|svg|txt|md|rtf|sch)$/i;
const MB = 1024 * 1024;

/** Raised while inflating when a limit is passed; `whole` stops the zip, otherwise only the entry. */
class InflateLimit extends Error {
  constructor(
    readonly reason: string,
    readonly whole: boolean,
  ) {
    super(reason);
  }
}

/** Reads one inner file's content (the dispatcher, passed in to avoid an import cycle). */
export type InnerReader = (ctx: ExtractContext) => Promise<PartialResult>;

/** What a zip is by its directory: a Word document or an archive of files. */
export async function zipKind(path: string): Promise<'docx' | 'zip'> {
  let zip: ZipFile | undefined;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false });
    const names = new Set<string>();
    for await (const entry of entries(zip)) {
      names.add(entry.fileName);
      if (names.size > 50) break;
    }
    return names.has('[Content_Types].xml') && names.has('word/document.xml') ? 'docx' : 'zip';
  } catch {
    return 'zip'; // the zip reader will say it is damaged
  } finally {
    zip?.close();
  }
}

/** The entries of an open zip, one at a time (yauzl's lazy mode). */
async function* entries(zip: ZipFile): AsyncGenerator<Entry> {
  while (true) {
    const next = await new Promise<Entry | null>((resolve, reject) => {
      const onEntry = (e: Entry) => done(e);
      const onEnd = () => done(null);
      const onError = (err: Error) => {
        cleanup();
        reject(err);
      };
      const cleanup = () => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      const done = (e: Entry | null) => {
        cleanup();
        resolve(e);
      };
      zip.once('entry', onEntry);
      zip.once('end', onEnd);
      zip.once('error', onError);
      zip.readEntry();
    });
    if (!next) return;
    yield next;
  }
}

/**
 * A zip: each inner file read by the same rules as an upload (named "records.zip › ccd.xml").
 * Entries are inflated to a private temporary folder one at a time, counting the bytes actually
 * inflated: the total and each entry's ratio are enforced while inflating, since the upload check
 * could only trust the sizes the zip declares. Zips inside zips are not opened.
 */
export async function extractZip(ctx: ExtractContext, readInner: InnerReader): Promise<PartialResult> {
  const part = emptyPart();
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(ctx.path, {
      lazyEntries: true,
      autoClose: false,
      strictFileNames: false,
      validateEntrySizes: true,
    });
  } catch {
    part.problems.push({ filename: ctx.filename, reason: 'This zip file is damaged and could not be read.' });
    return part;
  }
  const dir = await mkdtemp(join(tmpdir(), 'medfolio-unzip-'));
  const budget = { total: 0, entries: 0, read: 0 };
  try {
    for await (const entry of entries(zip)) {
      ctx.signal?.throwIfAborted();
      const name = entry.fileName;
      const inner = `${ctx.filename} › ${name}`;
      if (name.endsWith('/') || /(^|\/)(__MACOSX\/|\.)/.test(name) || NOT_RECORDS.test(name)) continue;
      if (++budget.entries > ctx.limits.zipEntries) {
        part.problems.push({
          filename: ctx.filename,
          reason: `Only the first ${ctx.limits.zipEntries} files in this zip were read.`,
        });
        break;
      }
      if (entry.isEncrypted()) {
        part.problems.push({
          filename: inner,
          reason: 'This file is protected by a password, so it could not be read.',
        });
        continue;
      }
      if (/\.zip$/i.test(name)) {
        part.problems.push({ filename: inner, reason: 'A zip inside a zip is not opened: upload it on its own.' });
        continue;
      }
      const path = join(dir, `entry-${budget.entries}`);
      try {
        await inflate(zip, entry, path, ctx, budget);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        if (error instanceof InflateLimit) {
          ctx.logger.warn('zip_limit', { whole: error.whole, inflated: budget.total });
          part.problems.push({ filename: error.whole ? ctx.filename : inner, reason: error.reason });
          if (error.whole) break;
          continue;
        }
        part.problems.push({ filename: inner, reason: 'This file is damaged and could not be read.' });
        continue;
      }
      const got = await readInner({ ...ctx, path, filename: inner, depth: ctx.depth + 1 });
      await rm(path, { force: true });
      budget.read++;
      merge(part, got);
    }
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    part.problems.push({ filename: ctx.filename, reason: 'This zip file is damaged: only part of it could be read.' });
  } finally {
    zip.close();
    await rm(dir, { recursive: true, force: true });
  }
  ctx.logger.info('zip_read', { files: budget.read, inflatedBytes: budget.total });
  return part;
}

async function inflate(
  zip: ZipFile,
  entry: Entry,
  path: string,
  ctx: ExtractContext,
  budget: { total: number },
): Promise<void> {
  const maxEntry = Math.max(RATIO_FLOOR, entry.compressedSize * ctx.limits.zipEntryRatio);
  let entryBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      entryBytes += chunk.length;
      budget.total += chunk.length;
      if (budget.total > ctx.limits.zipTotalBytes) {
        return callback(
          new InflateLimit(
            `This zip expands to more than ${size(ctx.limits.zipTotalBytes)}; the rest of it was not read.`,
            true,
          ),
        );
      }
      if (entryBytes > maxEntry) {
        return callback(
          new InflateLimit(
            'This file was not read: it expands far more than a real document would (it may be a zip bomb).',
            false,
          ),
        );
      }
      callback(null, chunk);
    },
  });
  const stream = await zip.openReadStreamPromise(entry);
  await pipeline(stream, counter, createWriteStream(path, { mode: 0o600 }), { signal: ctx.signal });
}

function size(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function merge(into: PartialResult, part: PartialResult): void {
  into.texts.push(...part.texts);
  into.facts.push(...part.facts);
  into.noneKnown.push(...part.noneKnown);
  into.problems.push(...part.problems);
  if (part.documentDate && (!into.documentDate || part.documentDate > into.documentDate))
    into.documentDate = part.documentDate;
}
