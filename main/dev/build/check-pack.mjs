#!/usr/bin/env node
// Packaging check (electron-builder reads package.json's `build`): builds the app, packs the unpacked Linux directory against a stub Electron distribution
// (a placeholder executable and a version file), and asserts what app.asar holds.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const root = resolve(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const electronVersion = pkg.devDependencies.electron;
/** The packed app.asar must stay under this size (the app's own code, art and three small runtime libraries). */
const MAX_ASAR_BYTES = 12 * 1024 * 1024;
/** Libraries bundled into the renderer: they must not also ship as runtime dependencies. */
const RENDERER_ONLY = ['pixi.js', 'zustand', '@pixi'];

const run = (command, args, env = {}) =>
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ...env } });

console.log('== building main, preload and renderer');
run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--config', 'electron.config.ts']);

const stub = mkdtempSync(join(tmpdir(), 'pixelfleet-electron-stub-'));
writeFileSync(join(stub, 'electron'), '#!/bin/sh\necho "stub Electron: packaging check only" >&2\nexit 1\n');
chmodSync(join(stub, 'electron'), 0o755);
writeFileSync(join(stub, 'version'), `v${electronVersion}`);
mkdirSync(join(stub, 'resources'), { recursive: true });
const output = mkdtempSync(join(tmpdir(), 'pixelfleet-pack-'));

try {
  console.log('== packing the unpacked app against a stub Electron');
  run(process.execPath, [
    join(root, 'node_modules', 'electron-builder', 'cli.js'),
    '--linux', 'dir',
    `-c.electronDist=${stub}`,
    `-c.electronVersion=${electronVersion}`,
    `-c.directories.output=${output}`,
    '--publish', 'never',
  ]);
  const archive = join(output, 'linux-unpacked', 'resources', 'app.asar');
  const files = asar.listPackage(archive, { isPack: false }).map((file) => file.replaceAll('\\', '/'));
  const size = statSync(archive).size;
  const failures = [];
  const has = (path) => files.includes(path);
  for (const required of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html']) {
    if (!has(required)) failures.push(`missing ${required}`);
  }
  if (!files.some((file) => file.startsWith('/out/renderer/') && file.endsWith('.png'))) failures.push('missing the pixel art (no PNG under out/renderer)');
  if (!files.some((file) => file.startsWith('/out/renderer/') && file.endsWith('.js'))) failures.push('missing the renderer bundle');
  const forbidden = files.filter(
    (file) =>
      !file.startsWith('/node_modules/') &&
      (/\.test\.|\.spec\./.test(file) || /\.ts$/.test(file) || /^\/(main|renderer|shared|e2e|bench|scripts|\.ci)\//.test(file)),
  );
  if (forbidden.length) failures.push(`source-only or test files packed: ${forbidden.slice(0, 5).join(', ')}${forbidden.length > 5 ? '…' : ''}`);
  for (const library of RENDERER_ONLY) {
    if (files.some((file) => file.startsWith(`/node_modules/${library}/`))) failures.push(`renderer-only library ${library} packed as a runtime dependency`);
  }
  if (size > MAX_ASAR_BYTES) failures.push(`app.asar is ${size} bytes, over the bound of ${MAX_ASAR_BYTES}`);
  const modules = new Set(files.filter((file) => file.startsWith('/node_modules/')).map((file) => file.split('/')[2]));
  console.log(`app.asar: ${files.length} entries, ${(size / 1024 / 1024).toFixed(2)} MiB (bound ${MAX_ASAR_BYTES / 1024 / 1024} MiB); runtime modules: ${[...modules].sort().join(', ')}`);
  if (failures.length) {
    for (const failure of failures) console.error(`packaging check: ${failure}`);
    process.exitCode = 1;
  } else {
    console.log('packaging check: 1 passed, 0 failed');
  }
} finally {
  rmSync(stub, { recursive: true, force: true });
  rmSync(output, { recursive: true, force: true });
}
