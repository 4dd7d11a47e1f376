// Builds the page (renderer/index.html) into out/renderer for browser mode and the Electron shell.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    // Keep the sprite sheet a file: small images would otherwise be inlined as data URLs.
    assetsInlineLimit: 0,
    target: 'es2022',
  },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
