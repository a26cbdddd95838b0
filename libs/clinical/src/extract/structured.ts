import { readFile, stat } from 'node:fs/promises';
import { extractCcda } from './ccda';
import { extractFhir, FHIR_RESOURCE_TYPES, isFhirResource } from './fhir';
import { problemPart, UnreadableError, type ExtractContext, type PartialResult } from './types';
import { parseUntrustedXml, V3 } from './xml';

export type StructuredKind = 'ccda' | 'fhir';

/** Bytes the documents service should pass to sniffStructuredRecord (the start of the upload). */
export const STRUCTURED_SNIFF_BYTES = 64 * 1024;

function decode(head: Buffer): string {
  return head.toString('utf8').replace(/^\uFEFF/, '');
}

/**
 * Whether the start of an upload is a structured health record, by content only: a C-CDA
 * ClinicalDocument (root element in the urn:hl7-org:v3 namespace, no DOCTYPE) or a FHIR resource
 * (a JSON object whose resourceType is a FHIR type). When `head` holds the whole file it must also
 * be well-formed; when it is only the start, the root is checked and the full parse happens when
 * the record is read (extractDocument reports a damaged one as a problem).
 */
export function sniffStructuredRecord(
  head: Buffer,
  complete = head.length < STRUCTURED_SNIFF_BYTES,
): StructuredKind | null {
  const text = decode(head).trimStart();
  if (text.startsWith('<')) return sniffXml(text, complete) ? 'ccda' : null;
  if (text.startsWith('{')) return sniffJson(text, complete) ? 'fhir' : null;
  return null;
}

function sniffXml(text: string, complete: boolean): boolean {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return false;
  if (complete) {
    try {
      const root = parseUntrustedXml(text).documentElement;
      return !!root && root.localName === 'ClinicalDocument' && root.namespaceURI === V3;
    } catch {
      return false;
    }
  }
  // The first start tag after the prolog (declaration, comments, processing instructions).
  const prolog = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/.exec(text)?.[0] ?? '';
  const tag = /^<([A-Za-z_][\w.-]*:)?ClinicalDocument\b([^>]*)>/.exec(text.slice(prolog.length));
  if (!tag) return false;
  const prefix = tag[1] ? tag[1].slice(0, -1) : '';
  const ns = new RegExp(`\\sxmlns${prefix ? ':' + prefix : ''}\\s*=\\s*["']urn:hl7-org:v3["']`);
  return ns.test(tag[2]);
}

function sniffJson(text: string, complete: boolean): boolean {
  if (complete) {
    try {
      return isFhirResource(JSON.parse(text));
    } catch {
      return false;
    }
  }
  // Only the start: a top-level "resourceType" naming a FHIR type, before any nested object.
  const m =
    /^\{\s*(?:"[^"\\]*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[\d.eE+-]+|true|false|null)\s*,\s*)*"resourceType"\s*:\s*"([A-Za-z]+)"/.exec(
      text,
    );
  return !!m && FHIR_RESOURCE_TYPES.has(m[1]);
}

/** Reads a C-CDA or FHIR file (parsed whole, within limits.maxParsedBytes). */
export async function extractStructured(ctx: ExtractContext, kind: StructuredKind): Promise<PartialResult> {
  if ((await stat(ctx.path)).size > ctx.limits.maxParsedBytes) {
    return problemPart(ctx.filename, 'This record is too large to be read.');
  }
  const text = decode(await readFile(ctx.path));
  try {
    return kind === 'ccda' ? extractCcda(ctx, text) : extractFhir(ctx, text);
  } catch (error) {
    if (error instanceof UnreadableError) return problemPart(ctx.filename, error.message);
    throw error;
  }
}
