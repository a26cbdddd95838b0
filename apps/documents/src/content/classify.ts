import type { DocumentKind } from '@medfolio/contracts';
import { CfbCheck } from './cfb-check';
import type { StructureCheck } from './content-problem';
import { extensionOf } from './filename';
import { JpegCheck } from './jpeg-check';
import { ACCEPTED_TYPES_SENTENCE, KIND_BY_EXTENSION, KIND_NAMES, refused } from './kinds';
import { PdfCheck } from './pdf-check';
import { PngCheck } from './png-check';
import { sniff, type Sniffed } from './sniff';
import { ZipCheck, type ZipLimits } from './zip-check';

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
 */
export async function classify(filename: string, head: Buffer, zipLimits: ZipLimits): Promise<Classified> {
  const expected = KIND_BY_EXTENSION[extensionOf(filename)];
  if (!expected) throw refused(filename, `is not an accepted type. ${ACCEPTED_TYPES_SENTENCE}`);
  if (head.length === 0) throw refused(filename, 'is empty.');
  const sniffed = await sniff(head);
  if (sniffed.family === 'other') throw refused(filename, `is not ${KIND_NAMES[expected]}: it is ${sniffed.actual}.`);
  if (!KINDS_OF_FAMILY[sniffed.family].includes(expected)) {
    throw refused(filename, `is not ${KIND_NAMES[expected]}: it is ${FAMILY_NAMES[sniffed.family]}.`);
  }
  return { kind: expected, check: checkFor(expected, zipLimits) };
}

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
  }
}
