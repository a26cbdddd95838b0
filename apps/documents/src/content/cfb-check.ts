import { ContentProblem, type StructureCheck } from './content-problem';

/** Directory entries are 128 bytes; the name is UTF-16LE in the first 64, its byte length (with the NUL) at 64, the type at 66. */
const ENTRY_SIZE = 128;
const WORD_STREAM = Buffer.from('WordDocument\0', 'utf16le');
const STREAM_OBJECT = 2;

/**
 * A .doc is an OLE2 compound file (as are .xls, .ppt, .msi and others) whose directory lists a
 * "WordDocument" stream. The directory's sectors can lie anywhere in the file, so every 128-byte
 * record after the header sector is compared, as the bytes stream past, against that directory
 * entry. Memory: one record.
 */
export class CfbCheck implements StructureCheck {
  private readonly header = Buffer.alloc(512);
  private headerFilled = 0;
  private sectorSize = 0;
  private position = 0;
  private readonly record = Buffer.alloc(ENTRY_SIZE);
  private recordFilled = 0;
  private found = false;

  update(chunk: Buffer): void {
    let offset = 0;
    if (this.headerFilled < this.header.length) {
      const take = Math.min(this.header.length - this.headerFilled, chunk.length);
      chunk.copy(this.header, this.headerFilled, 0, take);
      this.headerFilled += take;
      offset = take;
      if (this.headerFilled < this.header.length) return;
      const shift = this.header.readUInt16LE(30);
      if (shift !== 9 && shift !== 12) throw damaged();
      this.sectorSize = 1 << shift;
      this.position = this.header.length;
    }
    // Skip the rest of the header sector (4096-byte sectors), then look at whole records.
    while (offset < chunk.length && !this.found) {
      if (this.position < this.sectorSize) {
        const skip = Math.min(this.sectorSize - this.position, chunk.length - offset);
        this.position += skip;
        offset += skip;
        continue;
      }
      if (this.recordFilled === 0 && chunk.length - offset >= ENTRY_SIZE) {
        this.inspect(chunk, offset);
        offset += ENTRY_SIZE;
        this.position += ENTRY_SIZE;
        continue;
      }
      const take = Math.min(ENTRY_SIZE - this.recordFilled, chunk.length - offset);
      chunk.copy(this.record, this.recordFilled, offset, offset + take);
      this.recordFilled += take;
      offset += take;
      this.position += take;
      if (this.recordFilled === ENTRY_SIZE) {
        this.inspect(this.record, 0);
        this.recordFilled = 0;
      }
    }
  }

  finish(): void {
    if (this.headerFilled < this.header.length) throw damaged();
    if (!this.found) {
      throw new ContentProblem(
        'is not a Word document: it is another kind of Office or Windows file (for example Excel or an installer).',
      );
    }
  }

  private inspect(bytes: Buffer, at: number): void {
    if (
      bytes.readUInt16LE(at + 64) === WORD_STREAM.length &&
      bytes[at + 66] === STREAM_OBJECT &&
      bytes.subarray(at, at + WORD_STREAM.length).equals(WORD_STREAM)
    ) {
      this.found = true;
    }
  }
}

function damaged(): ContentProblem {
  return new ContentProblem('is damaged or not a complete Word document.');
}
