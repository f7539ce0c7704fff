/**
 * Builds the local viewer's page (src/viewer/page) into dist/viewer, Mermaid included, so
 * the package serves it without the internet: `npm run build:viewer`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./src/viewer/page/', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/viewer/', import.meta.url)),
    emptyOutDir: true,
    // Mermaid is large; the page loads it only once a statechart is drawn.
    chunkSizeWarningLimit: 4096,
    reportCompressedSize: false,
  },
});
