import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Paths that belong to the server: never answered with the web app's index.html. */
const SERVER_PATHS = /^\/(api|dev|health|metrics)(\/|$)/;

/** Where the built web app is: WEB_ROOT, else next to the compiled gateway (dist/apps/web/dist). */
export function resolveWebRoot(configured: string): string | null {
  if (configured) return path.resolve(configured);
  const besideBuild = path.resolve(__dirname, '../../../web/dist');
  return existsSync(path.join(besideBuild, 'index.html')) ? besideBuild : null;
}

/**
 * Serves the single-page web app from the same origin as /api (so cookies stay SameSite=Strict and
 * no CORS is needed): hashed files under /assets/ cached for a year, everything else revalidated,
 * and index.html for every other page address, so client-side routes (/profile,
 * /reset-password/{email}/{token}, ...) survive a reload. Unknown /api paths still answer JSON 404.
 * A page loaded signed in is `no-store` (pageCacheControl), so the browser does not keep it to show
 * again from its back/forward cache after sign-out.
 */
export async function serveWebApp(app: NestFastifyApplication, root: string): Promise<void> {
  const pageFor = await webPages(root);
  await app.register(fastifyStatic, {
    root,
    wildcard: false, // one route per file found at start-up; unknown paths fall through to the handler below
    index: false,
    preCompressed: true, // .br / .gz made at build time (libs/tooling/build.mjs), chosen by Accept-Encoding
    setHeaders(reply, file) {
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/*', async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.headers.accept ?? '').includes('text/html') || !/\.[a-z0-9]+$/i.test(url);
    if (SERVER_PATHS.test(url) || !wantsPage) {
      return reply.status(404).header('content-type', 'application/json; charset=utf-8').send({ message: 'Not found.', code: 'NOT_FOUND' });
    }
    const signedIn = hasSessionCookie(request.headers.cookie);
    const page = pageFor(url, signedIn);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    reply
      .status(200)
      .header('cache-control', pageCacheControl(signedIn))
      .header('vary', 'Accept-Encoding, Cookie')
      .header('content-type', 'text/html; charset=utf-8');
    if (encoding === 'identity') return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(await page.compressed(encoding));
  });
}

/** One HTML answer for a page address; its compressed forms are made on first use and kept. */
export interface WebPage {
  html: string;
  compressed(encoding: 'br' | 'gzip'): Promise<Buffer>;
}

/**
 * The HTML for each page address:
 * - signed-out visitors of a prerendered public page (dist/prerendered.json, made by the web build)
 *   get that page already rendered, so it paints before any JavaScript runs;
 * - everyone else gets index.html, the empty shell the app renders into;
 * and both name the route's code chunks (dist/route-preloads.json), so they download alongside the
 * main bundle instead of after it: the shell as <link rel="modulepreload">, a prerendered page as a
 * list its entry script preloads once the page has painted. Signed-in visitors never get
 * prerendered markup: theirs is a different page ("/" is their dashboard), rendered by the app.
 */
export async function webPages(root: string): Promise<(url: string, signedIn: boolean) => WebPage> {
  const indexHtml = await readFile(path.join(root, 'index.html'), 'utf8');
  const preloads = await readTable(root, 'route-preloads.json');
  const prerendered = await readTable(root, 'prerendered.json');
  const withPreloads = (html: string, files: string[] | undefined) =>
    files?.length
      ? html.replace('</head>', `${files.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">`).join('\n')}\n  </head>`)
      : html;
  // A prerendered page paints without its scripts (they only take it over), so its entry script
  // preloads the route's chunks itself, after the first paint (apps/web/src/boot.ts).
  const withLaterPreloads = (html: string, files: string[] | undefined) =>
    files?.length ? html.replace(/<div id="root" data-prerendered="[^"]*"/, (root) => `${root} data-chunks="${files.join(' ')}"`) : html;
  const routes = await Promise.all(
    [...new Set([...Object.keys(preloads), ...Object.keys(prerendered)])].map(async (route) => {
      const file = prerendered[route];
      const rendered = typeof file === 'string' ? await readFile(path.join(root, file), 'utf8') : undefined;
      const files = Array.isArray(preloads[route]) ? (preloads[route] as string[]) : undefined;
      return {
        pattern: new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}/?$`),
        shell: webPage(withPreloads(indexHtml, files)),
        rendered: rendered === undefined ? undefined : webPage(withLaterPreloads(rendered, files)),
      };
    }),
  );
  const plain = webPage(indexHtml);
  return (url, signedIn) => {
    const route = routes.find((r) => r.pattern.test(url));
    if (!route) return plain;
    return (!signedIn && route.rendered) || route.shell;
  };
}

/** A JSON table the web build wrote; an older build without it gives an empty table. */
async function readTable(root: string, name: string): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await readFile(path.join(root, name), 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function webPage(html: string): WebPage {
  const cache = new Map<string, Promise<Buffer>>();
  return {
    html,
    compressed(encoding) {
      let done = cache.get(encoding);
      if (!done) {
        done =
          encoding === 'br'
            ? brotli(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html) } })
            : gzip(html, { level: 9 });
        cache.set(encoding, done);
      }
      return done;
    },
  };
}

/**
 * A page's Cache-Control. Loaded signed in, it will show the account (the dashboard, the owner's
 * summary): `no-store`, so it is neither cached nor kept in the back/forward cache to be shown again
 * after sign-out (the web app also reloads such a page if one is restored anyway).
 * A signed-out visitor's page holds nothing private: `no-cache` (revalidated, and Back stays fast).
 */
export function pageCacheControl(signedIn: boolean): 'no-store' | 'no-cache' {
  return signedIn ? 'no-store' : 'no-cache';
}

/** The session cookies of section 4: their presence means the app will render a signed-in page. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return /(?:^|;)\s*(?:access_token|refresh_token)=[^;\s]/.test(cookieHeader ?? '');
}

/** br, else gzip, else identity, as the client's Accept-Encoding allows (q=0 refuses one). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}
