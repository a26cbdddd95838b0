import { ContentProblem, type StructureCheck } from './content-problem';
import { TailBuffer } from './tail-buffer';

/** A PDF ends with "%%EOF" (and maybe a line end or some padding): it must be in the last KiB. */
const TRAILER_WINDOW = 1024;

/**
 * The bytes begin with "%PDF-" (the sniffing saw to that); a complete PDF also ends with its
 * "%%EOF" marker, so a truncated upload or something merely starting like a PDF is refused.
 */
export class PdfCheck implements StructureCheck {
  private readonly tail = new TailBuffer(TRAILER_WINDOW);

  update(chunk: Buffer): void {
    this.tail.push(chunk);
  }

  finish(): void {
    if (!this.tail.bytes().includes('%%EOF')) throw new ContentProblem('is damaged or not a complete PDF.');
  }
}
