import { documentFiles as files, refusal } from '@medfolio/testing';
import { classify, HEAD_BYTES } from './classify';
import { inspect, ZIP_LIMITS as limits } from '../testing/inspect';

const notARecord = (name: string) => `"${name}" is not a health record: it is not a C-CDA document or a FHIR resource.`;
const dtd = (name: string) =>
  `"${name}" is not a health record: it declares a document type (DTD), which is not accepted for safety.`;

describe('structured health records', () => {
  it.each([
    ['ccd.xml', 'xml', () => files.ccda()],
    ['CCD.XML', 'xml', () => files.ccda()],
    [
      'a C-CDA larger than the head, judged on its start and then parsed as it streams: big-ccd.xml',
      'xml',
      () => files.ccda(2000),
    ],
    [
      'with a byte order mark: bom-ccd.xml',
      'xml',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), files.ccda()]),
    ],
    ['ips.json', 'json', () => files.fhirBundle()],
    [
      'with a byte order mark: bom-ips.json',
      'json',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), files.fhirBundle()]),
    ],
    ['a large Bundle: big-ips.json', 'json', () => files.fhirBundle(3000)],
  ] as const)('accepts %s as %s, passing it through unchanged', async (label, kind, make) => {
    const name = label.split(': ').pop() ?? label;
    const data = make();
    for (const piece of [1, 4096, 1 << 20]) {
      if (piece === 1 && data.length > 100_000) continue; // byte by byte is slow on the large ones
      const result = await inspect(name, data, { piece });
      expect(result.kind).toBe(kind);
      expect(result.bytes.equals(data)).toBe(true);
    }
  });

  it('the large samples are larger than the head, so the streaming checks are what judge them', () => {
    expect(files.ccda(2000).length).toBeGreaterThan(HEAD_BYTES);
    expect(files.fhirBundle(3000).length).toBeGreaterThan(HEAD_BYTES);
  });

  it.each([
    [
      'an XML file that is not a ClinicalDocument',
      'notes.xml',
      () => Buffer.from('<?xml version="1.0"?><notes><note>hello</note></notes>'),
      notARecord('notes.xml'),
    ],
    [
      'a ClinicalDocument outside the HL7 v3 namespace',
      'ccd.xml',
      () => Buffer.from('<ClinicalDocument xmlns="urn:example"><title>x</title></ClinicalDocument>'),
      notARecord('ccd.xml'),
    ],
    ['an XXE file', 'ccd.xml', () => files.xxe(), dtd('ccd.xml')],
    ['a billion-laughs file', 'ccd.xml', () => files.billionLaughs(), dtd('ccd.xml')],
    [
      'a JSON file that is not FHIR',
      'data.json',
      () => Buffer.from('{"name": "value", "list": [1, 2]}'),
      notARecord('data.json'),
    ],
    [
      'a JSON with an unknown resourceType',
      'data.json',
      () => Buffer.from('{"resourceType": "Spaceship"}'),
      notARecord('data.json'),
    ],
    ['a JSON array', 'data.json', () => Buffer.from('[{"resourceType": "Patient"}]'), notARecord('data.json')],
    [
      'a web page named .xml',
      'page.xml',
      () => files.html(),
      '"page.xml" is not a health record: it is a web page (HTML).',
    ],
    [
      'an SVG named .xml',
      'drawing.xml',
      () => files.svg(),
      '"drawing.xml" is not a health record: it is an SVG image.',
    ],
    ['a PDF named .xml', 'record.xml', () => files.pdf(), '"record.xml" is not a health record: it is a PDF.'],
    [
      'a program named .json',
      'record.json',
      () => files.exe(),
      '"record.json" is not a health record: it is a Windows program (.exe).',
    ],
    [
      'a C-CDA named .json',
      'ccd.json',
      () => files.ccda(),
      '"ccd.json" is not a FHIR resource (.json): it is a C-CDA document (.xml).',
    ],
    [
      'a FHIR Bundle named .xml',
      'ips.xml',
      () => files.fhirBundle(),
      '"ips.xml" is not a C-CDA document (.xml): it is a FHIR resource (.json).',
    ],
    ['a damaged C-CDA (whole in the head)', 'ccd.xml', () => files.ccda().subarray(0, 400), notARecord('ccd.xml')],
    ['an empty .json', 'empty.json', () => Buffer.alloc(0), '"empty.json" is empty.'],
  ] as const)('refuses %s from its start', async (_label, name, make, message) => {
    const error = await refusal(classify(name, make().subarray(0, HEAD_BYTES), limits));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message });
  });

  it.each([
    [
      'a truncated large C-CDA',
      'ccd.xml',
      () => files.ccda(2000).subarray(0, 100_000),
      '"ccd.xml" is damaged or not a complete health record (C-CDA).',
    ],
    [
      'a large C-CDA with a second root after it',
      'ccd.xml',
      () => Buffer.concat([files.ccda(2000), Buffer.from('<ClinicalDocument xmlns="urn:hl7-org:v3"/>')]),
      '"ccd.xml" is damaged or not a complete health record (C-CDA).',
    ],
    [
      'a large C-CDA with an undeclared entity further on',
      'ccd.xml',
      () => Buffer.from(files.ccda(2000).toString('utf8').replace('Test observation 1500', '&xxe;')),
      '"ccd.xml" is damaged or not a complete health record (C-CDA).',
    ],
    [
      'a truncated large Bundle',
      'ips.json',
      () => files.fhirBundle(3000).subarray(0, 150_000),
      '"ips.json" is damaged or not a complete health record (FHIR).',
    ],
    [
      'a large Bundle with something after it',
      'ips.json',
      () => Buffer.concat([files.fhirBundle(3000), Buffer.from('{"resourceType":"Patient"}')]),
      '"ips.json" is damaged or not a complete health record (FHIR).',
    ],
  ] as const)('refuses %s as it streams', async (_label, name, make, message) => {
    const data = make();
    expect(data.length).toBeGreaterThan(HEAD_BYTES); // the head alone looks fine
    await expect(classify(name, data.subarray(0, HEAD_BYTES), limits)).resolves.toBeDefined();
    const error = await refusal(inspect(name, data));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message });
  });

  it('accepts a portal export zip: the C-CDA with its stylesheet, a readme page, a style sheet and a text', async () => {
    const data = files.zip([
      { name: 'ccd.xml', data: files.ccda() },
      { name: 'stylesheet.xsl', data: Buffer.from('<xsl:stylesheet version="1.0"/>') },
      { name: 'CDA.xslt', data: Buffer.from('<xsl:stylesheet version="1.0"/>') },
      { name: 'readme.html', data: files.html() },
      { name: 'export/readme.htm', data: files.html() },
      { name: 'export/style.css', data: Buffer.from('body { color: black }') },
      { name: 'export/readme.txt', data: Buffer.from('Your record') },
      { name: 'fhir/ips.json', data: files.fhirBundle() },
    ]);
    const result = await inspect('my-record.zip', data);
    expect(result.kind).toBe('zip');
  });

  it('still refuses a zip holding a program beside a record', async () => {
    const data = files.zip([
      { name: 'ccd.xml', data: files.ccda() },
      { name: 'viewer.exe', data: files.exe() },
    ]);
    const error = await refusal(inspect('my-record.zip', data));
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message:
        '"my-record.zip" was refused: it contains "viewer.exe", which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).',
    });
  });
});
