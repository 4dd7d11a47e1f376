// Keeps out/main (the built main process and CLI) in step with the sources: every start compares the build's manifest
// (each source's mtime and size, written by main/dev/build/mainBuild.ts) with the files, one stat each, and rebuilds when
// any differs, saying so on stderr. A development checkout therefore never runs stale code.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (this file is main/edges/cli/freshBuild.mjs). */
export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** A lock older than this is taken to be left over from a build that died. */
const LOCK_STALE_MS = 5 * 60_000;

/** Why out/main does not match the sources (a sentence), or null when it does. */
export function staleReason(root = ROOT) {
  const out = join(root, 'out', 'main');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(out, 'build-manifest.json'), 'utf8'));
  } catch {
    return 'the main process is not built yet';
  }
  if (manifest?.version !== 1 || typeof manifest.files !== 'object' || manifest.files === null) return 'the build manifest is unreadable';
  if (!statSync(join(out, 'cli.js'), { throwIfNoEntry: false })) return 'out/main/cli.js is missing';
  for (const [file, stamp] of Object.entries(manifest.files)) {
    const info = statSync(join(root, file), { throwIfNoEntry: false });
    if (!info) return `${file} is gone`;
    if (!Array.isArray(stamp) || info.mtimeMs !== stamp[0] || info.size !== stamp[1]) return `${file} changed`;
  }
  return null;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the build lock (one builder per checkout at a time); returns its release. */
function lock(root) {
  const dir = join(root, 'out');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '.main-build.lock');
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(path);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    let age;
    try {
      owner = Number(readFileSync(path, 'utf8'));
      age = Date.now() - statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if ((owner && !alive(owner)) || age > LOCK_STALE_MS) {
      try {
        unlinkSync(path);
      } catch {
        // Someone else cleared it first.
      }
      continue;
    }
    sleep(100);
  }
}

/**
 * Makes sure out/main/cli.js is built from the current sources, rebuilding it (and saying why through `say`) when
 * not. Returns `{ ok: true, entry }` or `{ ok: false, reason }` when the build fails (stale code is never run).
 */
export function ensureBuilt({ root = ROOT, say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const entry = join(root, 'out', 'main', 'cli.js');
  if (!staleReason(root)) return { ok: true, entry };
  const release = lock(root);
  try {
    // Another process may have built it while this one waited for the lock.
    const reason = staleReason(root);
    if (!reason) return { ok: true, entry };
    say(`pixelfleet: rebuilding the main process (${reason})…`);
    const started = Date.now();
    const result = spawnSync(process.execPath, [join(root, 'main', 'dev', 'build', 'buildMain.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (result.status !== 0) return { ok: false, reason: `the main process did not build; fix the error and run again:\n${`${result.stdout}${result.stderr}`.trim()}` };
    say(`pixelfleet: rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ok: true, entry };
  } finally {
    release();
  }
}
