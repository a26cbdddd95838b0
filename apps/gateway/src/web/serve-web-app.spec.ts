import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { routePreloader } from './serve-web-app';

describe('routePreloader', () => {
  const html = '<html><head><title>t</title></head><body></body></html>';

  it("adds the route's chunks as modulepreload links, matching :params", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'web-'));
    writeFileSync(path.join(root, 'route-preloads.json'), JSON.stringify({ '/login': ['assets/Login-1.js', 'assets/zod-2.js'], '/reset-password/:email/:token': ['assets/Reset-3.js'] }));
    const pageFor = await routePreloader(root, html);
    expect(pageFor('/login')).toContain('<link rel="modulepreload" crossorigin href="/assets/Login-1.js">');
    expect(pageFor('/login')).toContain('href="/assets/zod-2.js"');
    expect(pageFor('/reset-password/a%40b.com/tok')).toContain('href="/assets/Reset-3.js"');
    expect(pageFor('/')).toBe(html);
    expect(pageFor('/login/extra')).toBe(html);
  });

  it('serves index.html unchanged when the build has no table', async () => {
    const pageFor = await routePreloader(mkdtempSync(path.join(tmpdir(), 'web-')), html);
    expect(pageFor('/login')).toBe(html);
  });
});
