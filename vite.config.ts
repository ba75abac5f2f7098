import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const rendererRoot = fileURLToPath(new URL('./renderer', import.meta.url));

export default defineConfig({
  root: rendererRoot,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // Everything the CSP allows is a file from 'self'; no inline modules, no data: scripts.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { port: 5173, strictPort: true },
});
