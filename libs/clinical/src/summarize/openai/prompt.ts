// What the summary model is sent: a system prompt, and one user message per chunk of a document's
// pages, each page labelled with its number so the model can cite it.
import type { EngineInput, ExtractedText } from '../../model';

export const SYSTEM_PROMPT = `You read one patient's medical record and list the facts it states about that patient.
Sort every fact into one of five sections: current_conditions (active problems and diagnoses), past_history (resolved or historical conditions), medications (current and stopped drugs), allergies (allergies and intolerances), additional (procedures, immunizations, results, vital signs, care team, family history as a note).
For each fact give: its category; its text as a doctor would read it, in the document's words; its status (active, resolved, stopped, or unknown when the document does not say); certainty "possible" only when the document is uncertain ("possible", "rule out", "suspected"), else "confirmed"; onset and end dates as ISO dates (partial allowed) only when written; dose, route and frequency for medications, reaction and severity for allergies, value, unit and interpretation for results and vital signs, otherwise null; a code only when the code itself is written in the text, else null.
For each fact give a citation: the page number from the "=== Page N ===" label, and a quote copied character for character from that page (one line or sentence, at most 200 characters) that states the fact.
When the document says a section is empty ("No known drug allergies", "Medications: none"), add it to noneKnown with its own citation.
Do not list negated findings ("denies chest pain"), conditions of relatives as the patient's, suggestions or plans not started, or anything the pages do not say. Never infer or add facts from general knowledge.`;

/** One page as the model sees it: `label` is the number in its "=== Page N ===" line. */
export interface LabelledPage {
  label: number;
  source: ExtractedText;
}

/** A run of whole pages (or one part of a page longer than a chunk) sent in one call. */
export interface Chunk {
  documentId: string;
  pages: LabelledPage[];
  /** The message text: labelled pages, at most `chunkChars` characters of page text. */
  content: string;
}

/**
 * Page labels: the document's own page numbers when every page has a distinct one (a PDF), else
 * 1, 2, 3... in order (Word files and files inside a zip have no pages).
 */
export function labelPages(input: EngineInput): LabelledPage[] {
  const pages = input.texts.filter((t) => t.text.trim() !== '');
  const numbers = pages.map((t) => t.page);
  const ownNumbers = numbers.every((n) => n !== null) && new Set(numbers).size === numbers.length;
  return pages.map((source, i) => ({ label: ownNumbers && source.page !== null ? source.page : i + 1, source }));
}

const header = (label: number): string => `=== Page ${label} ===\n`;

/**
 * Chunks at page boundaries, each at most `chunkChars` characters of page text. A page longer than
 * that is cut at line ends into parts that keep its label (citations are checked against the whole page).
 */
export function chunkDocument(input: EngineInput, chunkChars: number): Chunk[] {
  const chunks: Chunk[] = [];
  let pages: LabelledPage[] = [];
  let parts: string[] = [];
  let size = 0;
  const close = (): void => {
    if (parts.length) chunks.push({ documentId: input.documentId, pages, content: parts.join('\n') });
    pages = [];
    parts = [];
    size = 0;
  };
  for (const page of labelPages(input)) {
    for (const piece of splitText(page.source.text, chunkChars)) {
      if (size + piece.length > chunkChars) close();
      if (!pages.includes(page)) pages.push(page);
      parts.push(header(page.label) + piece);
      size += piece.length;
    }
  }
  close();
  return chunks;
}

/** Cuts text at line ends (at a space, or anywhere, for a line longer than `max`) into pieces of at most `max`. */
function splitText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[\n ]/, '');
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** "pages 3-4 of note.pdf", for problems the patient reads. */
export function describeChunk(chunk: Chunk, filename: string): string {
  const labels = chunk.pages.map((p) => p.label);
  const first = labels[0];
  const last = labels[labels.length - 1];
  const pages = first === last ? `page ${first}` : `pages ${first}-${last}`;
  return `${pages} of ${filename}`;
}
