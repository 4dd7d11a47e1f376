#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is installed, otherwise browser mode with the same services.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { findElectronBinary } from './electronBinary.mjs';
import { HOST_NODE_FLAGS } from '../../edges/cli/hostFlags.mjs';

const root = resolve(import.meta.dirname, '..', '..', '..');
const args = process.argv.slice(2);
let electron = findElectronBinary();
// Electron fetches its binary lazily; fetch it now with the package's own installer, unless told not to.
if (!electron.ok && process.env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '1') {
  console.log('Pixelfleet: fetching the Electron binary for the desktop window (once)…');
  const fetched = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'], timeout: 15 * 60_000 });
  electron = findElectronBinary();
  if (!electron.ok && fetched.status !== 0) electron = { ok: false, reason: 'the Electron binary could not be downloaded here' };
}

if (electron.ok) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--config', 'electron.config.ts'], { cwd: root, stdio: 'inherit' });
  const child = spawn(electron.executable, [root, ...args], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Pixelfleet: no desktop window here (${electron.reason}); starting browser mode instead.`);
  const child = spawn(process.execPath, [...HOST_NODE_FLAGS, join(root, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'web', ...args], { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
