import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes route-preloads.json: for each lazy route of src/app/router.tsx, the chunks its page needs.
 * The gateway adds them to index.html as <link rel="modulepreload"> for that address, so a page's
 * code downloads alongside the main bundle instead of after it.
 */
function routePreloads(): Plugin {
  return {
    name: 'medfolio-route-preloads',
    generateBundle(_options, bundle) {
      const routerFile = path.resolve(import.meta.dirname, 'src/app/router.tsx');
      const source = readFileSync(routerFile, 'utf8');
      const routes: Record<string, string[]> = {};
      // A route reads `{ path: '/x', ...titled('X'), lazy: page(() => import('../pages/X')) }` (its title optional).
      for (const [, route, module] of source.matchAll(/path: '([^']+)',(?: \.\.\.titled\([^)]*\),)? lazy: page\(\(\) => import\('([^']+)'\)\)/g)) {
        const id = path.resolve(path.dirname(routerFile), `${module}.tsx`);
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === id);
        if (chunk && chunk.type === 'chunk') routes[route] = [chunk.fileName, ...chunk.imports.filter((f) => !bundle[f] || (bundle[f].type === 'chunk' && !bundle[f].isEntry))];
      }
      // An empty table would silently drop every page's preloads (it did once, when routes gained titles).
      if (Object.keys(routes).length === 0) this.error('route-preloads: no lazy route of src/app/router.tsx matched; update the pattern to the route table');
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(routes) });
    },
    // The entry (src/boot.ts) loads the app (src/main.tsx) as a separate chunk, after the first paint
    // of a prerendered page: <link rel="modulepreload"> for that chunk and everything it imports lets
    // the browser download them at once anyway.
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const main = path.resolve(import.meta.dirname, 'src/main.tsx');
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === main);
        if (!app) throw new Error('src/main.tsx is not a chunk of its own: src/boot.ts must import() it');
        const files = new Set<string>();
        const visit = (name: string) => {
          const chunk = bundle[name];
          if (!chunk || chunk.type !== 'chunk' || chunk.isEntry || files.has(name)) return;
          files.add(name);
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

// The web app is served by the gateway (same origin as /api); `vite` (dev server) proxies /api and
// /dev to a running `npm start` on port 3000.
// `vite build --ssr src/prerender.tsx` (libs/tooling/build.mjs) builds the page prerenderer for Node.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [routePreloads()])],
  build: {
    copyPublicDir: !isSsrBuild,
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Per-route chunks come from the router's lazy() routes; vendor code is split from app code.
    chunkSizeWarningLimit: 300,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' },
  },
}));
