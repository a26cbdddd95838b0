import yauzl from 'yauzl';
import type { DocumentKind } from '@medfolio/contracts';
import { ContentProblem, type StructureCheck } from './content-problem';
import { displayName, extensionOf } from './filename';
import { INNER_ZIP_EXTENSIONS } from './kinds';
import { TailBuffer } from './tail-buffer';

export interface ZipLimits {
  /** Most entries in the central directory. */
  maxEntries: number;
  /** Most bytes all entries together may declare uncompressed. */
  maxUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio of one entry (above {@link RATIO_FLOOR} bytes). */
  maxRatio: number;
}

/**
 * The central directory (and its end record, with a comment of up to 64 KiB and the zip64 records)
 * must lie in the last bytes of the file that we keep. 4 MiB holds the directory of the largest
 * zip we accept (1000 entries with long names take about 300 KiB).
 */
export const ZIP_TAIL_BYTES = 4 * 1024 * 1024 + 0xffff + 22 + 20 + 56;
/** Entries smaller than this are not judged by their ratio: a 10 KiB text compresses 100:1 honestly. */
export const RATIO_FLOOR = 1024 * 1024;
/** The smallest possible local file header: it precedes each entry's data. */
const LOCAL_HEADER_SIZE = 30;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const MB = 1024 * 1024;

/** A read outside the tail we kept: the directory is larger than anything we accept. */
class OutsideTail extends Error {}

/**
 * yauzl reads the end record and the central directory through this reader, from the tail of the
 * upload held in memory. It never reads (or inflates) any entry's data: only the directory.
 */
class TailReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly tail: Buffer,
    private readonly tailStart: number,
  ) {
    super();
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null) => void,
  ): void {
    const done = callback as (err: Error | null, bytesRead?: number) => void;
    const from = position - this.tailStart;
    if (from < 0 || from + length > this.tail.length) {
      setImmediate(() => done(new OutsideTail()));
      return;
    }
    this.tail.copy(buffer, offset, from, from + length);
    setImmediate(() => done(null, length));
  }

  override _readStreamForRange(): never {
    throw new OutsideTail();
  }
}

interface EntryFacts {
  name: string;
  offset: number;
  compressedSize: number;
}

/**
 * Checks a zip (or the zip that a .docx is) from its central directory, as the upload streams past
 * into storage: only the last {@link ZIP_TAIL_BYTES} are kept, and `finish` reads the directory from
 * them with yauzl, never inflating anything. Refused: too many entries; more uncompressed bytes
 * than allowed in all; an entry compressed more than the ratio allows (a zip bomb); entries whose
 * data overlap (the "overlapping files" bomb); absolute or ".." names and symbolic links;
 * encrypted entries (their contents cannot be checked). Then `kind` says what it is: a Word
 * document (a [Content_Types].xml and a word/document.xml, no macros) or a plain zip, whose files
 * must all be of the accepted types.
 */
export class ZipCheck implements StructureCheck {
  private readonly tail = new TailBuffer(ZIP_TAIL_BYTES);
  /** What the directory says the file is; set by `finish`. */
  kind: Extract<DocumentKind, 'zip' | 'docx'> | undefined;

  /** @param expected what the file's name promises: a .zip or a .docx. */
  constructor(
    private readonly limits: ZipLimits,
    private readonly expected: Extract<DocumentKind, 'zip' | 'docx'>,
  ) {}

  update(chunk: Buffer): void {
    this.tail.push(chunk);
  }

  async finish(): Promise<void> {
    const entries = await this.readDirectory();
    const names = new Set(entries.map((e) => e.name));
    const isWord = names.has('[Content_Types].xml') && names.has('word/document.xml');
    if (this.expected === 'docx' && !isWord)
      throw new ContentProblem('is not a Word document (.docx): it is a zip archive.');
    if (this.expected === 'zip' && isWord) throw new ContentProblem('is a Word document (.docx), not a zip file.');
    if (isWord) {
      if ([...names].some((name) => /(^|\/)vbaProject\.bin$/i.test(name))) {
        throw new ContentProblem('was refused: it is a Word document with macros, which are not accepted.');
      }
      this.kind = 'docx';
      return;
    }
    for (const { name } of entries) {
      if (name.endsWith('/')) continue;
      if (!INNER_ZIP_EXTENSIONS.has(extensionOf(name))) {
        throw new ContentProblem(
          `was refused: it contains ${show(name)}, which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).`,
        );
      }
    }
    this.kind = 'zip';
  }

  private async readDirectory(): Promise<EntryFacts[]> {
    const { maxEntries, maxUncompressedBytes, maxRatio } = this.limits;
    const zipfile = await this.open();
    try {
      if (zipfile.entryCount === 0) throw new ContentProblem('is an empty zip file.');
      if (zipfile.entryCount > maxEntries) {
        throw new ContentProblem(
          `was refused: it holds ${zipfile.entryCount} entries, more than the ${maxEntries} allowed.`,
        );
      }
      const directoryOffset = (zipfile as unknown as { readEntryCursor: number }).readEntryCursor;
      const entries: EntryFacts[] = [];
      let uncompressed = 0;
      for await (const entry of zipfile.eachEntry()) {
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          entry.fileNameRaw,
          entry.extraFields,
          false,
        );
        if (
          !name ||
          name.includes('\0') ||
          /^[A-Za-z]:/.test(name) ||
          name.startsWith('/') ||
          name.split('/').includes('..')
        ) {
          throw new ContentProblem(`was refused: it contains ${show(name)}, a path outside the archive.`);
        }
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
          throw new ContentProblem(`was refused: it contains ${show(name)}, a symbolic link.`);
        }
        if (entry.isEncrypted())
          throw new ContentProblem('was refused: it is password-protected, so its contents cannot be checked.');
        if (
          entry.uncompressedSize > RATIO_FLOOR &&
          entry.uncompressedSize > maxRatio * Math.max(entry.compressedSize, 1)
        ) {
          const ratio = Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1));
          throw new ContentProblem(
            `was refused: ${show(name)} is compressed ${ratio} to 1, more than the ${maxRatio} to 1 allowed (a zip bomb?).`,
          );
        }
        uncompressed += entry.uncompressedSize;
        if (uncompressed > maxUncompressedBytes) {
          throw new ContentProblem(
            `was refused: its files would take more than ${megabytes(maxUncompressedBytes)} unpacked, the most allowed.`,
          );
        }
        entries.push({ name, offset: entry.relativeOffsetOfLocalHeader, compressedSize: entry.compressedSize });
      }
      assertNoOverlap(entries, directoryOffset);
      return entries;
    } catch (error) {
      throw asProblem(error);
    } finally {
      zipfile.close();
    }
  }

  private async open(): Promise<yauzl.ZipFile> {
    const reader = new TailReader(this.tail.bytes(), this.tail.start);
    try {
      return await yauzl.fromRandomAccessReaderPromise(reader, this.tail.total, {
        lazyEntries: true,
        decodeStrings: false,
        validateEntrySizes: true,
        autoClose: false,
      });
    } catch (error) {
      throw asProblem(error);
    }
  }
}

/** Each entry's data lies between its own header and the next entry's, and before the directory. */
function assertNoOverlap(entries: EntryFacts[], directoryOffset: number): void {
  const ordered = [...entries].sort((a, b) => a.offset - b.offset);
  for (const [i, entry] of ordered.entries()) {
    const end = entry.offset + LOCAL_HEADER_SIZE + entry.compressedSize;
    const next = ordered[i + 1]?.offset ?? directoryOffset;
    if (end > next) throw new ContentProblem('was refused: its entries overlap one another (a zip bomb?).');
  }
}

function asProblem(error: unknown): ContentProblem {
  if (error instanceof ContentProblem) return error;
  if (error instanceof OutsideTail) return new ContentProblem('was refused: its directory is too large to check.');
  return new ContentProblem('is damaged or not a complete zip file.');
}

/** An entry's name in a message: made safe for display and quoted. */
function show(name: string): string {
  const safe = [...displayNameKeepingPath(name)];
  return `"${safe.length > 80 ? `${safe.slice(0, 77).join('')}...` : safe.join('')}"`;
}

/** Like displayName, but the path is what the message is about, so it is kept. */
function displayNameKeepingPath(name: string): string {
  return name
    .split('/')
    .map((segment) => (segment === '..' || segment === '' ? segment : displayName(segment)))
    .join('/');
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * MB
    ? `${Number((bytes / (1024 * MB)).toFixed(1))} GB`
    : `${Number((bytes / MB).toFixed(1))} MB`;
}
