import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT_OPEN =
  '<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:sdtc="urn:hl7-org:sdtc">';

/**
 * A C-CDA document around a section (or a body component), as the HL7 C-CDA-Examples fragments
 * in fixtures/hl7-ccda are published: without the ClinicalDocument around them.
 */
export function ccdaAround(fragment: string, documentDate = '20240315'): string {
  const body = fragment.replace(/<\?xml[^>]*\?>/, '').trim();
  const root = /^(?:\s|<!--[\s\S]*?-->)*<([A-Za-z]+)/.exec(body)?.[1];
  const component =
    root === 'component' ? body : `<component>${root === 'section' ? body : `<section>${body}</section>`}</component>`;
  return `${ROOT_OPEN}<effectiveTime value="${documentDate}"/><component><structuredBody>${component}</structuredBody></component></ClinicalDocument>`;
}

/** One of the HL7 C-CDA-Examples fragments kept in fixtures/hl7-ccda (see its README), as a document. */
export function hl7Example(name: string): string {
  return ccdaAround(readFileSync(join(__dirname, 'fixtures', 'hl7-ccda', `${name}.xml`), 'utf8'));
}
