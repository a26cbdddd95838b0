import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

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
 */
export async function serveWebApp(app: NestFastifyApplication, root: string): Promise<void> {
  const indexHtml = await readFile(path.join(root, 'index.html'), 'utf8');
  const pageFor = await routePreloader(root, indexHtml);
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
    return reply.status(200).header('cache-control', 'no-cache').header('content-type', 'text/html; charset=utf-8').send(pageFor(url));
  });
}

/**
 * index.html for a page address, with <link rel="modulepreload"> for that route's code chunks (from
 * the web build's route-preloads.json), so they download alongside the main bundle, not after it.
 */
export async function routePreloader(root: string, indexHtml: string): Promise<(url: string) => string> {
  let table: Record<string, string[]> = {};
  try {
    table = JSON.parse(await readFile(path.join(root, 'route-preloads.json'), 'utf8')) as Record<string, string[]>;
  } catch {
    return () => indexHtml; // an older build without the table: no hints
  }
  const routes = Object.entries(table).map(([route, files]) => ({
    pattern: new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}/?$`),
    html: indexHtml.replace('</head>', `${files.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">`).join('\n')}\n  </head>`),
  }));
  return (url) => routes.find((r) => r.pattern.test(url))?.html ?? indexHtml;
}
