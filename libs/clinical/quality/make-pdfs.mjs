#!/usr/bin/env node
// Regenerates the PDFs of the public corpus (libs/clinical/quality/public): each case's C-CDA XML is
// rendered to HTML with HL7's standard CDA stylesheet (cda-xsl/CDA.xsl, run by xsltproc) and printed
// to PDF by headless Chromium with its default print header and footer (date, title, file address,
// page numbers), as a patient portal prints it. The committed PDFs are what the tests
// read, so CI does not need either tool; run this only when a case's XML or the stylesheet changes.
//
//   node libs/clinical/quality/make-pdfs.mjs            every case with an .xml and no .pdf yet
//   node libs/clinical/quality/make-pdfs.mjs --force    every case
//
// Needs: xsltproc (Debian: apt-get install -y xsltproc) and Chromium (/usr/bin/chromium, or CHROMIUM=...).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, 'public');
const stylesheet = join(here, 'cda-xsl', 'CDA.xsl');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const force = process.argv.includes('--force');

const work = mkdtempSync(join(tmpdir(), 'cda-pdf-'));
try {
  for (const name of readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const dir = join(corpus, name);
    for (const file of readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.xml'))) {
      const pdf = join(dir, `${basename(file, '.xml')}.pdf`);
      if (existsSync(pdf) && !force) continue;
      const html = join(work, `${name}.html`);
      // The stylesheet reads cda_l10n.xml and cda_narrativeblock.xml next to itself.
      writeFileSync(html, execFileSync('xsltproc', ['--nonet', stylesheet, join(dir, file)], { maxBuffer: 64 << 20 }));
      execFileSync(
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
          `file://${html}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 },
      );
      console.log(`${name}/${basename(pdf)}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
