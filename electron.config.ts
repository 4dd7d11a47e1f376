// The desktop build (electron-vite): the main process (with the CLI, main/dev/build/mainBuild.ts), the sandboxed preload
// (CommonJS, self-contained) and the renderer.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { mainBuild } from './main/dev/build/mainBuild';

export default defineConfig({
  main: mainBuild,
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
