/**
 * A reason to refuse a file, found while its bytes stream past: a sentence that completes
 * '"scan.pdf" ...', e.g. 'is damaged or not a complete PDF.'. The upload turns it into a 415
 * naming the file, and the storage write it interrupts is aborted.
 */
export class ContentProblem extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ContentProblem';
  }
}

/** A check of one format's structure, fed every byte of the file in order. */
export interface StructureCheck {
  /** Throws {@link ContentProblem} as soon as the bytes so far are unacceptable. */
  update(chunk: Buffer): void;
  /** Called once after the last byte; throws {@link ContentProblem}. */
  finish(): void | Promise<void>;
}

/**
 * A scan of the bytes by something outside the process (the antivirus), fed every byte in order
 * like a {@link StructureCheck} but asynchronously: the bytes pass on to storage only once it took them.
 */
export interface StreamScan {
  /** Rejects with the refusal (a DomainError) when the file cannot be kept. */
  write(chunk: Buffer): Promise<void>;
  /** After the last byte (and the structure check): rejects with the refusal, e.g. malware found. */
  finish(): Promise<void>;
  /** The upload stopped for another reason. */
  abort(): void;
}

/**
 * Markup a browser would run if it were ever persuaded to render the bytes as a page. Found in an
 * image's metadata or after its end, it makes the file a polyglot, which we do not keep.
 */
const ACTIVE_MARKUP = [
  '<script',
  '<html',
  '<body',
  '<iframe',
  '<object',
  '<embed',
  '<!doctype html',
  '<?php',
  'javascript:',
];
const LONGEST = Math.max(...ACTIVE_MARKUP.map((m) => m.length));

/** Looks for {@link ACTIVE_MARKUP} in text that arrives in pieces (a match may span two pieces). */
export class MarkupScanner {
  private carry = '';

  /** True once markup has been seen. */
  found = false;

  feed(bytes: Buffer): boolean {
    if (this.found || bytes.length === 0) return this.found;
    const text = (this.carry + bytes.toString('latin1')).toLowerCase();
    this.found = ACTIVE_MARKUP.some((marker) => text.includes(marker));
    this.carry = text.slice(-(LONGEST - 1));
    return this.found;
  }

  reset(): void {
    this.carry = '';
  }
}
