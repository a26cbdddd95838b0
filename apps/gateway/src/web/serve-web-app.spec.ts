import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify from 'fastify';
import { hasSessionCookie, preferredEncoding, serveWebApp, webPages } from './serve-web-app';

const shell = '<html><head><title>t</title></head><body><div id="root"></div></body></html>';
const loginPage = '<html><head><title>t</title></head><body><div id="root" data-prerendered="/login"><form>Sign in</form></div></body></html>';
const loginPageWithChunks = loginPage.replace('data-prerendered="/login"', 'data-prerendered="/login" data-chunks="assets/Login-1.js assets/zod-2.js"');

function webRoot(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'web-'));
  writeFileSync(path.join(root, 'index.html'), shell);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

describe('webPages', () => {
  it("adds the route's chunks as modulepreload links, matching :params", async () => {
    const root = webRoot({
      'route-preloads.json': JSON.stringify({ '/login': ['assets/Login-1.js', 'assets/zod-2.js'], '/reset-password/:email/:token': ['assets/Reset-3.js'] }),
    });
    const pageFor = await webPages(root);
    expect(pageFor('/login', false).html).toContain('<link rel="modulepreload" crossorigin href="/assets/Login-1.js">');
    expect(pageFor('/login', false).html).toContain('href="/assets/zod-2.js"');
    expect(pageFor('/reset-password/a%40b.com/tok', false).html).toContain('href="/assets/Reset-3.js"');
    expect(pageFor('/', false).html).toBe(shell);
    expect(pageFor('/login/extra', false).html).toBe(shell);
  });

  it('gives signed-out visitors the prerendered page (with its preloads), signed-in ones the shell', async () => {
    const root = webRoot({
      'route-preloads.json': JSON.stringify({ '/login': ['assets/Login-1.js', 'assets/zod-2.js'] }),
      'prerendered.json': JSON.stringify({ '/login': 'prerendered/login.html' }),
      'prerendered/login.html': loginPage,
    });
    const pageFor = await webPages(root);
    const visitor = pageFor('/login/', false).html;
    // The chunks are named for the entry script to preload after the first paint, not in <head>.
    expect(visitor).toBe(loginPageWithChunks);
    const member = pageFor('/login', true).html;
    expect(member).not.toContain('data-prerendered');
    expect(member).toContain('href="/assets/Login-1.js"');
  });

  it('compresses each page once, with brotli or gzip', async () => {
    const root = webRoot({ 'prerendered.json': JSON.stringify({ '/login': 'prerendered/login.html' }), 'prerendered/login.html': loginPage });
    const page = (await webPages(root))('/login', false);
    expect(brotliDecompressSync(await page.compressed('br')).toString()).toBe(loginPage);
    expect(gunzipSync(await page.compressed('gzip')).toString()).toBe(loginPage);
    expect(page.compressed('br')).toBe(page.compressed('br'));
  });

  it('serves index.html unchanged when the build has no tables', async () => {
    const pageFor = await webPages(webRoot({}));
    expect(pageFor('/login', false).html).toBe(shell);
  });
});

describe('serveWebApp', () => {
  it('sends a page loaded signed in as no-store (never restored from the back/forward cache after sign-out), a visitor\'s as no-cache', async () => {
    const fastify = Fastify();
    const app = { register: fastify.register.bind(fastify), getHttpAdapter: () => ({ getInstance: () => fastify }) } as unknown as NestFastifyApplication;
    await serveWebApp(app, webRoot({}));
    try {
      const page = (url: string, cookie?: string) => fastify.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
      for (const url of ['/', '/summary/0f8b2c7e-5d1a-4c3b-9e2f-6a7b8c9d0e1f', '/profile', '/about']) {
        const member = await page(url, 'theme=dark; access_token=eyJ.x.y');
        expect({ url, status: member.statusCode, cache: member.headers['cache-control'] }).toEqual({ url, status: 200, cache: 'no-store' });
        expect((await page(url, 'refresh_token=r1')).headers['cache-control']).toBe('no-store');
        expect((await page(url)).headers['cache-control']).toBe('no-cache');
      }
      expect((await page('/', 'theme=dark')).headers['cache-control']).toBe('no-cache');
    } finally {
      await fastify.close();
    }
  });
});

describe('hasSessionCookie', () => {
  it.each([
    ['access_token=abc', true],
    ['theme=dark; refresh_token=xyz', true],
    ['theme=dark;access_token=abc', true],
    ['access_token=', false],
    ['my_access_token=abc', false],
    ['', false],
    [undefined, false],
  ])('%s -> %s', (header, expected) => {
    expect(hasSessionCookie(header)).toBe(expected);
  });
});

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
  ])('%s -> %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
