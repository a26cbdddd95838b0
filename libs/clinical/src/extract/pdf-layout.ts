// Layout-aware reading of a PDF's text layer. pdf.js gives each run of text with its position
// (x, y of the baseline), width, size and font; this module rebuilds what the page shows: lines,
// the gaps between cells, tables with their header rows and wrapped cells, section headings told
// by their typography, and drops the running headers, footers and page numbers a browser prints.
//
// Its output is plain text the summary engines read:
//   ## Allergies, Adverse Reactions, Alerts     a heading (bold and bigger than the body text)
//   | Substance | Reaction | Severity |         a table's header row,
//   | --- | --- | --- |                         marked as such by the line under it,
//   | Codeine | Fatal | Severe |                then one line per row, cells in their columns.
// Other lines keep their words; cells of a line that is not part of a table are two spaces apart.

/** One run of text as pdf.js gives it (PDF points, y upwards from the bottom of the page). */
export interface TextPiece {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  bold: boolean;
}

export interface PageText {
  page: number;
  /** Page height in points (where the top and bottom margins are). */
  height: number;
  pieces: TextPiece[];
}

interface Chunk {
  text: string;
  x0: number;
  x1: number;
  bold: boolean;
}

interface Line {
  page: number;
  y: number;
  size: number;
  chunks: Chunk[];
  bold: boolean;
}

/** Space between two runs wider than this (in font sizes) parts two cells. */
const CELL_GAP = 0.6;
/** Text this close to the top or bottom edge (points) may be a running header or footer. */
const MARGIN_BAND = 54;
/** A wrapped cell's next line is at most this far below (in font sizes); a new row is further. */
const WRAP_PITCH = 1.35;

const PAGE_NUMBER = /^(page\s*)?\d{1,4}\s*(\/|of)\s*\d{1,4}$|^(page\s*)?[-–]?\s*\d{1,4}\s*[-–]?$/i;
const URL = /^(https?|file):\/*\S+$|^www\.\S+$/i;
const PRINT_TIME = /^\d{1,2}\/\d{1,2}\/\d{2,4},?\s+\d{1,2}:\d{2}(\s*[AP]M)?$/i;

/** The pages' text, page by page, laid out as described above. */
export function layoutText(pages: PageText[]): { page: number; text: string }[] {
  const perPage = pages.map((p) => ({ page: p.page, height: p.height, lines: linesOf(p) }));
  const body = bodySize(perPage.flatMap((p) => p.lines));
  dropFurniture(perPage, body);
  const lines = perPage.flatMap((p) => p.lines);
  const out = new Map<number, string[]>();
  const emit = (page: number, text: string): void => {
    const list = out.get(page) ?? [];
    list.push(text);
    out.set(page, list);
  };
  for (let i = 0; i < lines.length;) {
    const line = lines[i] as Line;
    const previous = lines[i - 1];
    // A gap of more than two lines starts a new paragraph.
    if (previous && previous.page === line.page && previous.y - line.y > 2.2 * Math.max(line.size, previous.size))
      emit(line.page, '');
    if (isHeading(line, body)) {
      emit(line.page, `## ${lineText(line)}`);
      i++;
      continue;
    }
    const end = tableEnd(lines, i, body);
    if (end > i + 1) {
      for (const row of renderTable(lines.slice(i, end))) emit(row.page, row.text);
      i = end;
      continue;
    }
    // A bold line in the body's size: a sub-heading or a one-column table's header ("### Concerns").
    const text = lineText(line);
    emit(line.page, isSubheading(line, body) ? `### ${text}` : text);
    i++;
  }
  return pages
    .map((p) => ({
      page: p.page,
      text: (out.get(p.page) ?? [])
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    }))
    .filter((p) => p.text);
}

function linesOf(page: PageText): Line[] {
  const pieces = page.pieces.filter((p) => p.str.length > 0 && p.size > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; size: number; pieces: TextPiece[] }[] = [];
  for (const piece of pieces) {
    const line = lines.find((l) => Math.abs(l.y - piece.y) <= 0.35 * Math.min(l.size, piece.size));
    if (line) {
      line.pieces.push(piece);
      line.size = Math.max(line.size, piece.size);
    } else lines.push({ y: piece.y, size: piece.size, pieces: [piece] });
  }
  return lines
    .sort((a, b) => b.y - a.y)
    .map((l) => {
      const chunks = chunksOf(l.pieces.sort((a, b) => a.x - b.x));
      return { page: page.page, y: l.y, size: l.size, chunks, bold: chunks.length > 0 && chunks.every((c) => c.bold) };
    })
    .filter((l) => l.chunks.length > 0);
}

/** Runs of one line joined into cells: a small gap is a space (or nothing), a wide one a new cell. */
function chunksOf(pieces: TextPiece[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: (Chunk & { words: number; boldWords: number; space: boolean }) | null = null;
  for (const piece of pieces) {
    const blank = !piece.str.trim();
    if (blank) {
      if (current) current.space = true;
      continue;
    }
    const x1 = piece.x + piece.width;
    if (current && piece.x - current.x1 < CELL_GAP * piece.size) {
      const gap = piece.x - current.x1;
      current.text += (current.space || gap > 0.15 * piece.size) && !/\s$/.test(current.text) ? ' ' : '';
      current.text += piece.str;
      current.x1 = Math.max(current.x1, x1);
      current.words++;
      if (piece.bold) current.boldWords++;
      current.space = /\s$/.test(piece.str);
      continue;
    }
    if (current) chunks.push(finish(current));
    current = {
      text: piece.str,
      x0: piece.x,
      x1,
      bold: piece.bold,
      words: 1,
      boldWords: piece.bold ? 1 : 0,
      space: /\s$/.test(piece.str),
    };
  }
  if (current) chunks.push(finish(current));
  return chunks.filter((c) => c.text);
}

function finish(c: Chunk & { words: number; boldWords: number }): Chunk {
  return { text: c.text.replace(/\s+/g, ' ').trim(), x0: c.x0, x1: c.x1, bold: c.boldWords === c.words };
}

/** The body text's size: the size most characters are written in. */
function bodySize(lines: Line[]): number {
  const counts = new Map<number, number>();
  for (const line of lines) {
    const key = Math.round(line.size * 2) / 2;
    counts.set(key, (counts.get(key) ?? 0) + line.chunks.reduce((n, c) => n + c.text.length, 0));
  }
  let best = 10;
  let most = -1;
  for (const [size, count] of counts) {
    if (count > most) {
      best = size;
      most = count;
    }
  }
  return best;
}

const lineText = (line: Line): string => line.chunks.map((c) => c.text).join('  ');
const furnitureKey = (line: Line): string => lineText(line).replace(/\d+/g, '#').toLowerCase();

/**
 * Running headers and footers: a line at the same place near the top or bottom of most pages
 * (numbers aside: "Page 2 of 5"), and page numbers, print times and addresses a browser prints there.
 */
function dropFurniture(pages: { page: number; height: number; lines: Line[] }[], body: number): void {
  const inBand = (line: Line, height: number): boolean => line.y > height - MARGIN_BAND || line.y < MARGIN_BAND;
  const seen = new Map<string, Set<number>>();
  for (const p of pages) {
    for (const line of p.lines) {
      if (!inBand(line, p.height)) continue;
      const key = `${Math.round(line.y / 3)}|${furnitureKey(line)}`;
      const set = seen.get(key) ?? new Set<number>();
      set.add(p.page);
      seen.set(key, set);
    }
  }
  const repeatedOn = Math.max(2, Math.ceil(pages.length / 2));
  for (const p of pages) {
    p.lines = p.lines.filter((line) => {
      if (!inBand(line, p.height)) return true;
      const key = `${Math.round(line.y / 3)}|${furnitureKey(line)}`;
      if (pages.length >= 2 && (seen.get(key)?.size ?? 0) >= repeatedOn) return false;
      const printed = line.chunks.some((c) => PAGE_NUMBER.test(c.text) || URL.test(c.text) || PRINT_TIME.test(c.text));
      // A lone page number, or the browser's small print line (time, title, address, "1/3").
      if (line.chunks.length === 1 && PAGE_NUMBER.test(line.chunks[0]?.text ?? '')) return false;
      return !(printed && line.size < body * 0.98);
    });
  }
}

/** A section heading: one bold run bigger than the body text, or a much bigger one. */
function isHeading(line: Line, body: number): boolean {
  if (line.chunks.length !== 1) return false;
  const text = line.chunks[0]?.text ?? '';
  if (text.length > 90 || !/[a-z]{3}/i.test(text)) return false;
  return (line.bold && line.size >= body * 1.05) || line.size >= body * 1.3;
}

function isSubheading(line: Line, body: number): boolean {
  const text = line.chunks[0]?.text ?? '';
  return (
    line.bold &&
    line.chunks.length === 1 &&
    Math.abs(line.size - body) <= body * 0.05 &&
    text.split(/\s+/).length <= 8 &&
    /[a-z]{3}/i.test(text)
  );
}

const aligned = (x: number, anchors: number[]): boolean => anchors.some((a) => Math.abs(a - x) <= 2);

/**
 * Where a table starting at `start` ends (exclusive): lines with two or more cells, and lines with
 * one cell that sits in one of the table's columns (a wrapped cell, a row with one filled cell),
 * also across a page break.
 */
function tableEnd(lines: Line[], start: number, body: number): number {
  const first = lines[start];
  if (!first) return start;
  // A header row whose cells wrap is several bold lines (centred cells sit between the wrapped ones).
  let at = start;
  while (
    at < lines.length &&
    (lines[at] as Line).bold &&
    !isHeading(lines[at] as Line, body) &&
    (at === start || sameRow(lines[at - 1] as Line, lines[at] as Line))
  )
    at++;
  const band = lines.slice(start, at);
  const header = band.length > 0 && at < lines.length && headerColumns(band).length >= 2;
  if (!header) {
    if (first.chunks.length < 2) return start;
    at = start;
  }
  const anchors: number[] = header ? [] : first.chunks.map((c) => c.x0);
  let end = header ? at : start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] as Line;
    const previous = lines[end - 1] as Line;
    if (isHeading(line, body)) break;
    const samePage = line.page === previous.page;
    if (samePage && previous.y - line.y > 3.2 * Math.max(line.size, previous.size)) break;
    if (line.chunks.length >= 2) {
      // Bold cells under plain rows start another table, unless they repeat this one's header.
      if (line.bold && !previous.bold && lineText(line) !== lineText(first)) break;
    } else if (
      anchors.length > 0 &&
      !aligned(line.chunks[0]?.x0 ?? -1, anchors) &&
      // Close under the last line, it is more of that row (a cell listing codes line by line).
      !(samePage && previous.y - line.y <= WRAP_PITCH * line.size && !line.bold)
    )
      break;
    for (const c of line.chunks) if (!aligned(c.x0, anchors)) anchors.push(c.x0);
  }
  // Two lines at least: a header and a row, or two rows.
  return end - start >= 2 ? end : start;
}

/** Two lines of one header row: close together, less than two lines apart. */
function sameRow(above: Line, below: Line): boolean {
  return above.page === below.page && above.y - below.y <= 1.6 * Math.max(above.size, below.size);
}

interface Column {
  x0: number;
  x1: number;
  text: string;
}

/** Header cells: the bold lines at the top of a table, runs that overlap in x joined into one cell. */
function headerColumns(band: Line[]): Column[] {
  const columns: Column[] = [];
  for (const line of band) {
    for (const chunk of line.chunks) {
      const hit = columns.find((c) => chunk.x0 <= c.x1 + 2 && chunk.x1 >= c.x0 - 2);
      if (hit) {
        hit.text += ` ${chunk.text}`;
        hit.x0 = Math.min(hit.x0, chunk.x0);
        hit.x1 = Math.max(hit.x1, chunk.x1);
      } else columns.push({ x0: chunk.x0, x1: chunk.x1, text: chunk.text });
    }
  }
  return columns.sort((a, b) => a.x0 - b.x0);
}

/**
 * The column a cell belongs to. Header cells may be centred over their column while the data is
 * left-aligned: a cell starting at x is in the first column whose header ends at or after x.
 */
function columnOf(columns: Column[], x: number): number {
  const at = columns.findIndex((c) => x <= c.x1 + 1);
  return at < 0 ? columns.length - 1 : at;
}

function renderTable(lines: Line[]): { page: number; text: string }[] {
  const out: { page: number; text: string }[] = [];
  let header: Line[] = [];
  let at = 0;
  while (at < lines.length && (lines[at] as Line).bold) header.push(lines[at++] as Line);
  // All bold: not a header, just bold text.
  if (at >= lines.length) {
    header = [];
    at = 0;
  }
  let columns: Column[];
  if (header.length) {
    columns = headerColumns(header);
    const head = columns.map((c) => c.text);
    out.push({ page: header[0]?.page ?? 0, text: `| ${head.map(cellText).join(' | ')} |` });
    out.push({ page: header[0]?.page ?? 0, text: `|${' --- |'.repeat(head.length)}` });
  } else {
    // No header: the columns are where the cells start.
    const starts = [...new Set(lines.flatMap((l) => l.chunks.map((c) => Math.round(c.x0))))].sort((a, b) => a - b);
    const anchors: number[] = [];
    for (const s of starts) if (!aligned(s, anchors)) anchors.push(s);
    columns = anchors.map((x0, i) => ({ x0, x1: (anchors[i + 1] ?? Infinity) - 3, text: '' }));
  }
  const headerText = header.map(lineText).join(' ');
  // Rows are further apart than a cell's wrapped lines (cell padding): with no wider gap in the table
  // (preformatted text, a compact table), every line is a row.
  let widest = 0;
  for (let i = 1; i < lines.length; i++) {
    const [above, below] = [lines[i - 1] as Line, lines[i] as Line];
    if (above.page === below.page) widest = Math.max(widest, above.y - below.y);
  }
  let row: { page: number; cells: string[]; y: number; size: number } | null = null;
  const flush = (): void => {
    if (row && row.cells.some(Boolean))
      out.push({ page: row.page, text: `| ${row.cells.map(cellText).join(' | ')} |` });
    row = null;
  };
  for (; at < lines.length; at++) {
    const line = lines[at] as Line;
    // A header repeated at the top of the next page.
    if (line.bold && headerText && lineText(line) === lineText(header[0] as Line)) {
      flush();
      let skip = 1;
      while (
        skip < header.length &&
        lines[at + skip] &&
        lineText(lines[at + skip] as Line) === lineText(header[skip] as Line)
      )
        skip++;
      at += skip - 1;
      continue;
    }
    const cells: string[] = columns.map(() => '');
    for (const chunk of line.chunks) {
      const c = columnOf(columns, chunk.x0);
      cells[c] = cells[c] ? `${cells[c]} ${chunk.text}` : chunk.text;
    }
    const current = row as { page: number; cells: string[]; y: number; size: number } | null;
    // A line close under the last one continues its cells (a cell's text wrapped).
    const gap = current ? current.y - line.y : Infinity;
    if (current && current.page === line.page && gap <= WRAP_PITCH * line.size && gap <= 0.75 * widest) {
      cells.forEach((text, i) => {
        if (text) current.cells[i] = current.cells[i] ? `${current.cells[i]} ${text}` : text;
      });
      current.y = line.y;
      continue;
    }
    flush();
    row = { page: line.page, cells, y: line.y, size: line.size };
  }
  flush();
  return out;
}

const cellText = (text: string): string => text.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
