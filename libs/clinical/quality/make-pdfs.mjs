#!/usr/bin/env node
// Regenerates the PDFs of the public corpus (libs/clinical/quality/public): each case's C-CDA XML is
// rendered to HTML with HL7's standard CDA stylesheet (cda-xsl/CDA.xsl, run by xsltproc) and printed
// to PDF by headless Chromium with its default print header and footer (date, title, address,
// page numbers), as a patient portal prints it. The page is served from a loopback HTTP server, so
// the footer's address is http://127.0.0.1:<port>/<case>.html, never a path on this machine. The committed PDFs are what the tests
// read, so CI does not need either tool; run this only when a case's XML or the stylesheet changes.
//
//   node libs/clinical/quality/make-pdfs.mjs            every case with an .xml and no .pdf yet
//   node libs/clinical/quality/make-pdfs.mjs --force    every case
//
// Needs: xsltproc (Debian: apt-get install -y xsltproc) and Chromium (/usr/bin/chromium, or CHROMIUM=...).
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, 'public');
const stylesheet = join(here, 'cda-xsl', 'CDA.xsl');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const force = process.argv.includes('--force');

const work = mkdtempSync(join(tmpdir(), 'cda-pdf-'));
const server = createServer((req, res) => {
  const name = basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
  const file = join(work, name);
  if (!name.endsWith('.html') || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;
const run = promisify(execFile);
try {
  for (const name of readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const dir = join(corpus, name);
    for (const file of readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.xml'))) {
      const pdf = join(dir, `${basename(file, '.xml')}.pdf`);
      if (existsSync(pdf) && !force) continue;
      const html = join(work, `${name}.html`);
      // The stylesheet reads cda_l10n.xml and cda_narrativeblock.xml next to itself.
      writeFileSync(html, execFileSync('xsltproc', ['--nonet', stylesheet, join(dir, file)], { maxBuffer: 64 << 20 }));
      await run(
        chromium,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          `--user-data-dir=${join(work, 'profile')}`,
          `--print-to-pdf=${pdf}`,
          `http://127.0.0.1:${port}/${name}.html`,
        ],
        { timeout: 120_000 },
      );
      console.log(`${name}/${basename(pdf)}`);
    }
  }
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
