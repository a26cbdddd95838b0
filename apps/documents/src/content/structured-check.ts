import { StringDecoder } from 'node:string_decoder';
import { JSONParser } from '@streamparser/json';
import { SaxesParser } from 'saxes';
import { ContentProblem, type StructureCheck } from './content-problem';

const HL7_V3 = 'urn:hl7-org:v3';

export const DTD_REASON =
  'is not a health record: it declares a document type (DTD), which is not accepted for safety.';

/**
 * A C-CDA record, checked whole as it streams into storage (the first bytes were already seen to
 * start a ClinicalDocument): it must be well-formed XML whose root is a ClinicalDocument in the
 * HL7 v3 namespace, with no DOCTYPE anywhere. saxes never loads a DTD or expands a declared entity;
 * refusing the DOCTYPE outright keeps XXE and "billion laughs" files out of storage altogether.
 */
export class CcdaCheck implements StructureCheck {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private problem: ContentProblem | undefined;
  private sawRoot = false;
  private started = false;

  constructor() {
    this.parser.on('doctype', () => this.fail(new ContentProblem(DTD_REASON)));
    this.parser.on('opentag', (tag) => {
      if (this.sawRoot) return;
      this.sawRoot = true;
      if (tag.local !== 'ClinicalDocument' || tag.uri !== HL7_V3) this.fail(notARecord());
    });
    this.parser.on('error', () => this.fail(new ContentProblem('is damaged or not a complete health record (C-CDA).')));
  }

  update(chunk: Buffer): void {
    this.write(this.decoder.write(chunk));
  }

  finish(): void {
    this.write(this.decoder.end());
    if (!this.problem) this.parser.close();
    if (!this.sawRoot) this.fail(notARecord());
    if (this.problem) throw this.problem;
  }

  private write(text: string): void {
    if (this.problem) throw this.problem;
    // A byte order mark is not part of the XML; saxes would take it for text before the root.
    const clean = this.started ? text : text.replace(/^\uFEFF/, '');
    if (text) this.started = true;
    if (clean) this.parser.write(clean);
    if (this.problem) throw this.problem;
  }

  private fail(problem: ContentProblem): void {
    this.problem ??= problem;
  }
}

/**
 * A FHIR resource, checked whole as it streams: one well-formed JSON object (its resourceType was
 * seen at the start). Values are dropped as soon as they are parsed, so a large Bundle is never
 * held in memory. The parser itself skips a leading byte order mark.
 */
export class FhirCheck implements StructureCheck {
  private readonly parser = new JSONParser({ paths: ['$.*.*'], keepStack: false });
  private ended = false;
  private problem: ContentProblem | undefined;

  constructor() {
    this.parser.onValue = () => undefined;
    this.parser.onEnd = () => {
      this.ended = true;
    };
    this.parser.onError = () => {
      this.problem ??= damaged();
    };
  }

  update(chunk: Buffer): void {
    if (this.problem) throw this.problem;
    this.feed(chunk);
  }

  finish(): void {
    if (this.problem) throw this.problem;
    try {
      if (!this.ended) this.parser.end();
    } catch {
      throw damaged();
    }
    if (this.problem || !this.ended) throw this.problem ?? damaged();
  }

  private feed(bytes: Buffer): void {
    try {
      if (bytes.length > 0) this.parser.write(bytes);
    } catch {
      this.problem ??= damaged();
    }
    if (this.problem) throw this.problem;
  }
}

function notARecord(): ContentProblem {
  return new ContentProblem('is not a health record: it is not a C-CDA document or a FHIR resource.');
}

function damaged(): ContentProblem {
  return new ContentProblem('is damaged or not a complete health record (FHIR).');
}
