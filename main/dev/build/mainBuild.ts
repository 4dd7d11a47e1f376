/**
 * The main-process build, shared by the desktop app (`out/main/index.js`, the Electron main) and the `pixelfleet`
 * command (`out/main/cli.js`, also browser mode): one electron-vite `main` section with both entries, so both run
 * the same compiled code. It also writes `out/main/build-manifest.json`, the sources the build read with their mtime
 * and size, which `main/edges/cli/pixelfleet.mjs` checks on every start so a development checkout never runs stale code.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { MainViteConfig } from 'electron-vite';

/**
 * The repository root: the nearest folder up from this module that holds this file's own source. Not a fixed
 * `../..`: a config loader may bundle this module into a file beside `electron.config.ts` at the root.
 */
const ROOT = findRoot(import.meta.dirname);

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'main', 'dev', 'build', 'mainBuild.ts'))) return dir;
    if (dirname(dir) === dir) throw new Error(`the repository root was not found above ${start}`);
  }
}
/** Where the main-process build goes. */
export const MAIN_OUT = join(ROOT, 'out', 'main');
/** The manifest the CLI launcher compares with the sources. */
export const MANIFEST = 'build-manifest.json';
/** Files that shape the build without being modules of it. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'electron.config.ts', 'main/dev/build/mainBuild.ts', 'main/dev/build/main.config.ts'];

/** The (mtime, size) of a file under the root, keyed by its root-relative path; null outside the root or missing. */
function stamp(file: string): [string, [number, number]] | null {
  const path = relative(ROOT, file.split('?')[0]);
  if (path.startsWith('..') || isAbsolute(path) || path.includes(`node_modules${sep}`)) return null;
  const info = statSync(join(ROOT, path), { throwIfNoEntry: false });
  return info ? [path.split(sep).join('/'), [info.mtimeMs, info.size]] : null;
}

/**
 * Writes the manifest once the bundle is on disk. Each source is stamped as the build reads it (transform), so a
 * file edited later in the build keeps a newer stamp on disk than in the manifest and the next start rebuilds.
 */
function manifestPlugin() {
  const files = new Map<string, [number, number]>();
  return {
    name: 'pixelfleet:build-manifest',
    buildStart() {
      files.clear();
      for (const input of BUILD_INPUTS) {
        const entry = stamp(join(ROOT, input));
        if (entry) files.set(...entry);
      }
    },
    transform(_code: string, id: string) {
      const entry = isAbsolute(id) ? stamp(id) : null;
      if (entry) files.set(...entry);
      return null;
    },
    writeBundle() {
      const lines = [...files].map(([path, value]) => `  ${JSON.stringify(path)}: ${JSON.stringify(value)}`);
      writeFileSync(join(MAIN_OUT, MANIFEST), `{"version": 1, "builtAt": "${new Date().toISOString()}", "files": {\n${lines.join(',\n')}\n}}\n`);
    },
  };
}

/** The electron-vite `main` section: the Electron main and the CLI, flat in out/main (chunks keep `../..` = root). */
export const mainBuild: MainViteConfig = {
  plugins: [manifestPlugin()],
  build: {
    outDir: 'out/main',
    // Dependencies are bundled (one file loads faster than a tree of modules); native and build-time ones stay out.
    externalizeDeps: false,
    rolldownOptions: {
      input: { index: join(ROOT, 'main/electron/main.ts'), cli: join(ROOT, 'main/edges/cli/index.ts') },
      external: ['electron', 'better-sqlite3', 'vite', 'ws'],
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
};
