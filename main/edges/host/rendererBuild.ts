/** Makes sure the renderer is built before browser mode serves it, so `pixelfleet web` needs no separate step. */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: found upwards, since this file runs from main/edges/host in tests and from out/main when built. */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'renderer', 'vite.config.ts'))) return dir;
    if (dirname(dir) === dir) throw new Error(`the repository root was not found above ${start}`);
  }
}
/** Where the built renderer lives. */
export const RENDERER_OUT = join(REPO_ROOT, 'out', 'renderer');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestMtime(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

/** Builds the renderer with Vite when its output is missing or older than its sources. */
export async function ensureRendererBuilt(log: (message: string) => void): Promise<string> {
  const index = join(RENDERER_OUT, 'index.html');
  const builtAt = await stat(index).then(
    (info) => info.mtimeMs,
    () => 0,
  );
  const sources = Math.max(...(await Promise.all(['renderer', 'shared', 'assets'].map((dir) => newestMtime(join(REPO_ROOT, dir))))));
  if (builtAt > 0 && builtAt >= sources) return RENDERER_OUT;
  log(builtAt === 0 ? 'Building the world for the first run…' : 'The world changed; rebuilding it…');
  const vite = await import('vite');
  await vite.build({ configFile: join(REPO_ROOT, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  return RENDERER_OUT;
}
