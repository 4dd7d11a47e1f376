// Finds the Electron binary without requiring the electron package (which would download it on first use).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..', '..');

/** The path of the installed Electron executable, or a sentence saying why there is none. */
export function findElectronBinary() {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { ok: false, reason: 'node_modules/electron/path.txt is missing: the Electron binary was never downloaded on this machine' };
  const executable = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(executable)) return { ok: false, reason: `the Electron binary ${executable} is missing` };
  return { ok: true, executable };
}
