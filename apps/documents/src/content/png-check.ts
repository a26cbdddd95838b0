import { crc32 } from 'node:zlib';
import { ContentProblem, MarkupScanner, type StructureCheck } from './content-problem';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks whose data is text: metadata where markup could hide. */
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);
/** A PNG chunk is at most 2^31-1 bytes (the spec's limit). */
const MAX_CHUNK = 0x7fffffff;

type State = 'signature' | 'header' | 'data' | 'crc' | 'after-end';

/**
 * Walks a PNG's chunks as the bytes stream past: the signature, then length, type, data and CRC of
 * each chunk (every CRC is checked), IHDR first and IEND last, and nothing after IEND: data after
 * the end of the image is where a "PNG + HTML" polyglot keeps its page. Text chunks must not hold
 * active markup. Memory: a 12-byte header buffer.
 */
export class PngCheck implements StructureCheck {
  private state: State = 'signature';
  private readonly header = Buffer.alloc(12);
  private filled = 0;
  private chunkType = '';
  private remaining = 0;
  private crc = 0;
  private chunks = 0;
  private readonly markup = new MarkupScanner();

  update(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      switch (this.state) {
        case 'signature': {
          const taken = this.fill(chunk, offset, SIGNATURE.length);
          offset += taken;
          if (this.filled < SIGNATURE.length) break;
          if (!this.header.subarray(0, 8).equals(SIGNATURE)) throw damaged();
          this.filled = 0;
          this.state = 'header';
          break;
        }
        case 'header': {
          offset += this.fill(chunk, offset, 8);
          if (this.filled < 8) break;
          this.filled = 0;
          const length = this.header.readUInt32BE(0);
          const type = this.header.toString('latin1', 4, 8);
          if (length > MAX_CHUNK || !/^[A-Za-z]{4}$/.test(type)) throw damaged();
          if (this.chunks === 0 && type !== 'IHDR') throw damaged();
          this.chunkType = type;
          this.remaining = length;
          this.crc = crc32(this.header.subarray(4, 8));
          this.markup.reset();
          this.state = length > 0 ? 'data' : 'crc';
          break;
        }
        case 'data': {
          const take = Math.min(this.remaining, chunk.length - offset);
          const piece = chunk.subarray(offset, offset + take);
          this.crc = crc32(piece, this.crc);
          if (TEXT_CHUNKS.has(this.chunkType) && this.markup.feed(piece)) {
            throw new ContentProblem('was refused: its metadata holds web page markup (a disguised web page?).');
          }
          this.remaining -= take;
          offset += take;
          if (this.remaining === 0) this.state = 'crc';
          break;
        }
        case 'crc': {
          offset += this.fill(chunk, offset, 4);
          if (this.filled < 4) break;
          this.filled = 0;
          if (this.header.readUInt32BE(0) !== this.crc) throw damaged();
          this.chunks += 1;
          this.state = this.chunkType === 'IEND' ? 'after-end' : 'header';
          break;
        }
        case 'after-end':
          throw new ContentProblem('was refused: it carries data after the end of the image (a disguised file?).');
      }
    }
  }

  finish(): void {
    if (this.state !== 'after-end') throw damaged();
  }

  /** Copies up to `want - filled` bytes into the header buffer; returns how many were taken. */
  private fill(chunk: Buffer, offset: number, want: number): number {
    const take = Math.min(want - this.filled, chunk.length - offset);
    chunk.copy(this.header, this.filled, offset, offset + take);
    this.filled += take;
    return take;
  }
}

function damaged(): ContentProblem {
  return new ContentProblem('is not a valid PNG image: it is damaged or incomplete.');
}
