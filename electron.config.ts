// The desktop build (electron-vite): the main process, the sandboxed preload (CommonJS, self-contained) and the renderer.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rolldownOptions: {
        input: { index: resolve('main/electron/main.ts') },
        external: ['better-sqlite3', 'vite', 'ws'],
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('main/electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    base: './',
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      // The sprite sheet stays a file (the packaging check looks for it); small images would otherwise be inlined.
      assetsInlineLimit: 0,
      target: 'es2022',
      rolldownOptions: { input: resolve('renderer/index.html') },
    },
  },
});
