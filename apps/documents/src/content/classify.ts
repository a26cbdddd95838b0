// The sniffer's own entry point: the library's index would load its PDF, OCR and LLM code too.
import { sniffStructuredRecord, STRUCTURED_SNIFF_BYTES } from '@medfolio/clinical/structured';
import type { DocumentKind } from '@medfolio/contracts';
import { CfbCheck } from './cfb-check';
import type { StructureCheck } from './content-problem';
import { extensionOf } from './filename';
import { JpegCheck } from './jpeg-check';
import { ACCEPTED_TYPES_SENTENCE, KIND_BY_EXTENSION, KIND_NAMES, refused } from './kinds';
import { PdfCheck } from './pdf-check';
import { PngCheck } from './png-check';
import { describeText, sniff, SNIFF_BYTES, type Sniffed } from './sniff';
import { CcdaCheck, DTD_REASON, FhirCheck } from './structured-check';
import { ZipCheck, type ZipLimits } from './zip-check';

/** Bytes the upload reads before classifying: enough for magic numbers and for a health record's start. */
export const HEAD_BYTES = Math.max(SNIFF_BYTES, STRUCTURED_SNIFF_BYTES);

/** What a file promises to be (by its name) and is (by its first bytes), and how to check the rest. */
export interface Classified {
  kind: DocumentKind;
  check: StructureCheck;
}

type Family = Exclude<Sniffed['family'], 'other'>;

/** Which kinds each family of first bytes can turn out to be. */
const KINDS_OF_FAMILY: Record<Family, readonly DocumentKind[]> = {
  pdf: ['pdf'],
  jpeg: ['jpeg'],
  png: ['png'],
  cfb: ['doc'],
  zip: ['zip', 'docx'],
};

const FAMILY_NAMES: Record<Family, string> = {
  pdf: 'a PDF',
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  cfb: 'an older Office file (such as .doc, .xls or .ppt)',
  zip: 'a zip archive',
};

/**
 * Decides, before anything is stored, whether a file may be what its name says: the extension must
 * be an accepted one and the first bytes must agree with it (magic numbers, never the Content-Type
 * the browser sent). Throws a 415 naming the file otherwise. The returned check then looks at the
 * rest of the bytes as they stream into storage (a zip's directory, a Word file's streams, an
 * image's structure); the kind is final only once that check has passed.
 *
 * `head` must be at least {@link HEAD_BYTES} long unless it is the whole file: a health record is
 * judged on its first 64 KiB, and parsed whole when it is shorter.
 */
export async function classify(filename: string, head: Buffer, zipLimits: ZipLimits): Promise<Classified> {
  const expected = KIND_BY_EXTENSION[extensionOf(filename)];
  if (!expected) throw refused(filename, `is not an accepted type. ${ACCEPTED_TYPES_SENTENCE}`);
  if (head.length === 0) throw refused(filename, 'is empty.');
  const sniffed = await sniff(head);
  if (expected === 'xml' || expected === 'json') return classifyRecord(filename, expected, head, sniffed);
  if (sniffed.family === 'other') throw refused(filename, `is not ${KIND_NAMES[expected]}: it is ${sniffed.actual}.`);
  if (!KINDS_OF_FAMILY[sniffed.family].includes(expected)) {
    throw refused(filename, `is not ${KIND_NAMES[expected]}: it is ${FAMILY_NAMES[sniffed.family]}.`);
  }
  return { kind: expected, check: checkFor(expected, zipLimits) };
}

/**
 * A .xml must be a C-CDA ClinicalDocument and a .json a FHIR resource, by content (libs/clinical's
 * sniffer, which refuses any DTD). Both are text a browser could render, so they are only ever
 * served as attachments with nosniff, like every document.
 */
function classifyRecord(filename: string, expected: 'xml' | 'json', head: Buffer, sniffed: Sniffed): Classified {
  const found = sniffStructuredRecord(head);
  if (found === 'ccda' && expected === 'xml') return { kind: 'xml', check: new CcdaCheck() };
  if (found === 'fhir' && expected === 'json') return { kind: 'json', check: new FhirCheck() };
  if (found === 'ccda') throw refused(filename, 'is not a FHIR resource (.json): it is a C-CDA document (.xml).');
  if (found === 'fhir') throw refused(filename, 'is not a C-CDA document (.xml): it is a FHIR resource (.json).');
  if (sniffed.family !== 'other') throw refused(filename, `is not a health record: it is ${FAMILY_NAMES[sniffed.family]}.`);
  const text = describeText(head);
  if (text && text !== 'an XML file') throw refused(filename, `is not a health record: it is ${text}.`);
  // Only the start is scanned: a DOCTYPE can only come before the root element.
  if (/<!DOCTYPE|<!ENTITY/i.test(head.subarray(0, STRUCTURED_SNIFF_BYTES).toString('latin1'))) throw refused(filename, DTD_REASON);
  // A program or a photo that file-type names; other text, XML included, gets the plain refusal.
  if (!text && !GENERIC.has(sniffed.actual)) throw refused(filename, `is not a health record: it is ${sniffed.actual}.`);
  throw refused(filename, 'is not a health record: it is not a C-CDA document or a FHIR resource.');
}

/** What sniff says of text it cannot name better; for a record the plain refusal says more. */
const GENERIC: ReadonlySet<string> = new Set(['of an unknown type', 'a .xml file']);

function checkFor(kind: DocumentKind, zipLimits: ZipLimits): StructureCheck {
  switch (kind) {
    case 'pdf':
      return new PdfCheck();
    case 'jpeg':
      return new JpegCheck();
    case 'png':
      return new PngCheck();
    case 'doc':
      return new CfbCheck();
    case 'zip':
    case 'docx':
      return new ZipCheck(zipLimits, kind);
    case 'xml':
      return new CcdaCheck();
    case 'json':
      return new FhirCheck();
  }
}
