import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { UnreadableError } from './types';

/**
 * Parses XML that came from a patient's upload. A DOCTYPE is refused outright: records never need
 * one, and it is how external entities (XXE) and entity expansion ("billion laughs") get in.
 * xmldom itself fetches nothing and expands no declared entities; refusing keeps it that way.
 */
export function parseUntrustedXml(text: string): Document {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new UnreadableError('This file declares a document type (DTD), which is not accepted for safety.');
  }
  const errors: string[] = [];
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(text, 'application/xml');
  } catch {
    throw new UnreadableError('This XML file is damaged and could not be read.');
  }
  if (errors.length > 0 || !doc.documentElement)
    throw new UnreadableError('This XML file is damaged and could not be read.');
  return doc;
}

export const V3 = 'urn:hl7-org:v3';
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** Child elements in the HL7 v3 namespace with this local name. */
export function kids(el: Element | null | undefined, name?: string): Element[] {
  const out: Element[] = [];
  if (!el) return out;
  for (let c: Node | null = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === c.ELEMENT_NODE) {
      const e = c as Element;
      if (!name || (e.localName === name && e.namespaceURI === V3)) out.push(e);
    }
  }
  return out;
}

export function kid(el: Element | null | undefined, name: string): Element | undefined {
  return kids(el, name)[0];
}

/** Follows a path of child names, e.g. path(entry, 'consumable', 'manufacturedProduct'). */
export function path(el: Element | null | undefined, ...names: string[]): Element | undefined {
  let cur: Element | undefined = el ?? undefined;
  for (const name of names) cur = kid(cur, name);
  return cur;
}

/** Every descendant in the v3 namespace with this local name. */
export function descendants(el: Element, name: string): Element[] {
  return Array.from(el.getElementsByTagNameNS(V3, name));
}

export function attr(el: Element | null | undefined, name: string): string | undefined {
  const v = el?.getAttribute(name);
  return v === null || v === undefined || v === '' ? undefined : v;
}

export function textOf(node: Node | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
