import { fileTypeFromBuffer } from 'file-type';

/** Bytes read before deciding what a file is (file-type's own "reasonable detection size"). */
export const SNIFF_BYTES = 4100;

/**
 * What the first bytes of a file say it is. `family` is what our own checks then look into:
 * a zip can still turn out to be a .docx (or neither), a compound file a .doc (or an Excel sheet).
 */
export type Sniffed =
  | { family: 'pdf' | 'jpeg' | 'png' | 'zip' | 'cfb' }
  | { family: 'other'; /** What it is, for messages: "a Windows program (.exe)". */ actual: string };

/** Names of formats people are likely to send by mistake (or on purpose), keyed by file-type's ext. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  exe: 'a Windows program (.exe)',
  elf: 'a Linux program',
  macho: 'a macOS program',
  msi: 'a Windows installer (.msi)',
  gif: 'a GIF image',
  webp: 'a WebP image',
  heic: 'a HEIC photo',
  avif: 'an AVIF image',
  tif: 'a TIFF image',
  bmp: 'a BMP image',
  xlsx: 'an Excel workbook (.xlsx)',
  pptx: 'a PowerPoint presentation (.pptx)',
  odt: 'an OpenDocument text (.odt)',
  epub: 'an e-book (.epub)',
  jar: 'a Java archive (.jar)',
  apk: 'an Android app (.apk)',
  rar: 'a RAR archive',
  '7z': 'a 7-Zip archive',
  gz: 'a gzip archive',
  tar: 'a tar archive',
  rtf: 'a rich text document (.rtf)',
  mp4: 'a video (.mp4)',
  mov: 'a video (.mov)',
  mp3: 'an audio file (.mp3)',
};

/** Text formats file-type does not name: the ones that matter are the ones a browser would run. */
const TEXT_FORMATS: readonly [RegExp, string][] = [
  [/^\s*(<!doctype\s+html|<html|<head|<body|<script|<iframe)/i, 'a web page (HTML)'],
  [/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg/i, 'an SVG image'],
  [/^\s*<\?xml/i, 'an XML file'],
  [/^#!/, 'a script'],
];

/**
 * Decides from the first bytes (magic numbers, via file-type) which checks a file gets. The name
 * and the Content-Type the browser sent play no part.
 */
export async function sniff(head: Buffer): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(head);
  if (!detected) return { family: 'other', actual: describeUnknown(head) };
  switch (detected.ext) {
    case 'pdf':
      return { family: 'pdf' };
    case 'jpg':
      return { family: 'jpeg' };
    case 'png':
    case 'apng':
      return { family: 'png' };
    // file-type names a zip after its first entries; what it really holds, the central directory says.
    case 'zip':
    case 'docx':
      return { family: 'zip' };
    case 'cfb':
      return { family: 'cfb' };
    default:
      return { family: 'other', actual: DESCRIPTIONS[detected.ext] ?? `a .${detected.ext} file` };
  }
}

function describeUnknown(head: Buffer): string {
  if (head.length === 0) return 'empty';
  return describeText(head) ?? 'of an unknown type';
}

/** What text a file starts with, if it is one of {@link TEXT_FORMATS} ("a web page (HTML)"). */
export function describeText(head: Buffer): string | undefined {
  const text = head.subarray(0, 1024).toString('latin1');
  return TEXT_FORMATS.find(([pattern]) => pattern.test(text))?.[1];
}
