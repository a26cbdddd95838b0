import { ContentProblem, MarkupScanner, type StructureCheck } from './content-problem';

type State =
  | 'soi' // expecting FF D8
  | 'marker' // expecting FF then a marker code
  | 'length' // the 2-byte length of a segment
  | 'segment' // inside a segment's payload
  | 'entropy' // compressed image data after SOS, up to the next marker
  | 'entropy-ff' // saw FF inside compressed data
  | 'after-end'; // after EOI

const SOS = 0xda;
const EOI = 0xd9;
const SOI = 0xd8;

/**
 * Walks a JPEG's markers as the bytes stream past: SOI, segments with their lengths, the compressed
 * scans (FF 00 stuffing and restart markers), up to EOI. Metadata segments (APPn: EXIF, XMP, ...,
 * and COM) and anything after EOI must not hold active markup. Data after EOI is otherwise allowed:
 * phones append their own (motion photos, depth maps). Memory: a few counters.
 */
export class JpegCheck implements StructureCheck {
  private state: State = 'soi';
  private pending: number[] = [];
  private marker = 0;
  private remaining = 0;
  private scans = 0;
  private sawMarkerPrefix = false;
  private readonly markup = new MarkupScanner();

  update(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      switch (this.state) {
        case 'soi':
          this.pending.push(chunk[offset++] as number);
          if (this.pending.length < 2) break;
          if (this.pending[0] !== 0xff || this.pending[1] !== SOI) throw damaged();
          this.pending = [];
          this.state = 'marker';
          break;
        case 'marker': {
          const byte = chunk[offset++] as number;
          if (!this.sawMarkerPrefix) {
            if (byte !== 0xff) throw damaged();
            this.sawMarkerPrefix = true;
            break;
          }
          if (byte === 0xff) break; // fill bytes
          this.sawMarkerPrefix = false;
          this.onMarker(byte);
          break;
        }
        case 'length':
          this.pending.push(chunk[offset++] as number);
          if (this.pending.length < 2) break;
          this.remaining = (((this.pending[0] ?? 0) << 8) | (this.pending[1] ?? 0)) - 2;
          this.pending = [];
          if (this.remaining < 0) throw damaged();
          this.markup.reset();
          this.state = this.remaining > 0 ? 'segment' : this.afterSegment();
          break;
        case 'segment': {
          const take = Math.min(this.remaining, chunk.length - offset);
          if (isMetadata(this.marker) && this.markup.feed(chunk.subarray(offset, offset + take))) throw hidesMarkup();
          this.remaining -= take;
          offset += take;
          if (this.remaining === 0) this.state = this.afterSegment();
          break;
        }
        case 'entropy': {
          const next = chunk.indexOf(0xff, offset);
          if (next < 0) {
            offset = chunk.length;
            break;
          }
          offset = next + 1;
          this.state = 'entropy-ff';
          break;
        }
        case 'entropy-ff': {
          const byte = chunk[offset++] as number;
          if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7))
            this.state = 'entropy'; // stuffed FF, restart marker
          else if (byte !== 0xff) this.onMarker(byte);
          break;
        }
        case 'after-end': {
          if (this.markup.feed(chunk.subarray(offset))) throw hidesMarkup();
          offset = chunk.length;
          break;
        }
      }
    }
  }

  finish(): void {
    if (this.state !== 'after-end' || this.scans === 0) throw damaged();
  }

  private onMarker(code: number): void {
    if (code === EOI) {
      this.state = 'after-end';
      this.markup.reset();
      return;
    }
    if (code === SOI || code === 0x00 || (code >= 0xd0 && code <= 0xd7)) throw damaged();
    if (code === 0x01) {
      this.state = 'marker'; // TEM: no length
      return;
    }
    this.marker = code;
    this.state = 'length';
  }

  private afterSegment(): State {
    if (this.marker === SOS) {
      this.scans += 1;
      return 'entropy';
    }
    return 'marker';
  }
}

/** APP0-APP15 and COM: the segments that carry metadata rather than pixels. */
function isMetadata(marker: number): boolean {
  return (marker >= 0xe0 && marker <= 0xef) || marker === 0xfe;
}

function damaged(): ContentProblem {
  return new ContentProblem('is not a valid JPEG image: it is damaged or incomplete.');
}

function hidesMarkup(): ContentProblem {
  return new ContentProblem('was refused: it hides web page markup (a disguised web page?).');
}
