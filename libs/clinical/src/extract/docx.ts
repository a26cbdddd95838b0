import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import mammoth from 'mammoth';
import { stat } from 'node:fs/promises';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li']);

/**
 * Word (.docx) through mammoth. Its HTML is walked rather than its raw text so that tables keep
 * their rows: one line per row, cells separated by " | " (medication lists are often tables).
 */
export async function extractDocx(ctx: ExtractContext): Promise<PartialResult> {
  const part = emptyPart();
  if ((await stat(ctx.path)).size > ctx.limits.maxParsedBytes) {
    part.problems.push({ filename: ctx.filename, reason: 'This Word document is too large to be read.' });
    return part;
  }
  let html: string;
  try {
    // No images: only text is wanted, and embedded pictures would be inlined as base64.
    html = (
      await mammoth.convertToHtml(
        { path: ctx.path },
        { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
      )
    ).value;
  } catch {
    part.problems.push({ filename: ctx.filename, reason: 'This Word document is damaged and could not be read.' });
    return part;
  }
  const doc = new DOMParser().parseFromString(`<html><body>${html}</body></html>`, 'text/html');
  const lines: string[] = [];
  const body = doc.getElementsByTagName('body')[0];
  if (body) walk(body, lines);
  const text = lines.filter((l) => l.trim()).join('\n');
  if (text) part.texts.push({ filename: ctx.filename, page: null, text, ocr: false });
  return part;
}

function walk(node: Node, lines: string[]): void {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== child.ELEMENT_NODE) {
      if (child.textContent?.trim()) lines.push(clean(child.textContent));
      continue;
    }
    const el = child as Element;
    const tag = tagOf(el);
    if (tag === 'tr') {
      const cells: string[] = [];
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (['td', 'th'].includes(tagOf(c))) cells.push(clean(cellText(c)));
      }
      lines.push(cells.join(' | '));
    } else if (BLOCKS.has(tag) && !hasBlockChild(el)) {
      lines.push(clean(el.textContent ?? ''));
    } else {
      walk(el, lines);
    }
  }
}

/** A cell's paragraphs joined by spaces, so a row stays on one line. */
function cellText(cell: Node): string {
  const parts: string[] = [];
  const collect = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === c.TEXT_NODE) parts.push(c.textContent ?? '');
      else if (c.nodeType === c.ELEMENT_NODE) {
        collect(c);
        if (BLOCKS.has(tagOf(c))) parts.push(' ');
      }
    }
  };
  collect(cell);
  return parts.join('');
}

function hasBlockChild(el: Element): boolean {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (BLOCKS.has(tagOf(c)) || ['ul', 'ol', 'table'].includes(tagOf(c))) return true;
  }
  return false;
}

/** An element's lower-case tag name; '' for other nodes. */
function tagOf(node: Node): string {
  return node.nodeType === node.ELEMENT_NODE ? ((node as Element).localName ?? '').toLowerCase() : '';
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
