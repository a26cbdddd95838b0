import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_MAIL_COLOURS, renderDevMailPage } from './dev-mail.controller';

/** The web app's brand colours, from its stylesheet's @theme block. */
function webBrandColours(): Record<string, string> {
  const css = readFileSync(path.join(__dirname, '../../../web/src/index.css'), 'utf8');
  return Object.fromEntries([...css.matchAll(/--color-brand-(\d+):\s*(#[0-9a-f]{6})/gi)].map((m) => [`brand${m[1]}`, m[2]!.toLowerCase()]));
}

describe('the dev mailbox looks like the app', () => {
  it("uses the web app's brand colours", () => {
    const web = webBrandColours();
    for (const [name, value] of Object.entries(DEV_MAIL_COLOURS).filter(([key]) => key.startsWith('brand'))) expect([name, web[name]]).toEqual([name, value]);
  });

  it("has the app's header with the logo and a way back into the app", () => {
    const html = renderDevMailPage([]);
    expect(html).toMatch(/<header>[\s\S]*<a class="logo" href="\/">[\s\S]*Medfolio[\s\S]*<\/header>/);
    expect(html).toContain('href="/otp-verify"');
    expect(html).toContain(`fill="${DEV_MAIL_COLOURS.brand700}"`);
  });
});
