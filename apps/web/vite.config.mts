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
      for (const [, route, module] of source.matchAll(/path: '([^']+)', lazy: page\(\(\) => import\('([^']+)'\)\)/g)) {
        const id = path.resolve(path.dirname(routerFile), `${module}.tsx`);
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === id);
        if (chunk && chunk.type === 'chunk') routes[route] = [chunk.fileName, ...chunk.imports.filter((f) => !bundle[f] || (bundle[f].type === 'chunk' && !bundle[f].isEntry))];
      }
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(routes) });
    },
  };
}

// The web app is served by the gateway (same origin as /api); `vite` (dev server) proxies /api and
// /dev to a running `npm start` on port 3000.
export default defineConfig({
  plugins: [react(), tailwindcss(), routePreloads()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Per-route chunks come from the router's lazy() routes; vendor code is split from app code.
    chunkSizeWarningLimit: 300,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' },
  },
});
