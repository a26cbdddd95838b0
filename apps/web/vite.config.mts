import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// The web app is served by the gateway (same origin as /api); `vite` (dev server) proxies /api and
// /dev to a running `npm start` on port 3000.
export default defineConfig({
  plugins: [react(), tailwindcss()],
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
