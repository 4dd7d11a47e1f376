/**
 * The `pixelfleet` command runs built JavaScript and rebuilds it when a source changed. Each test works on a copy of
 * the sources in a temp folder (sharing node_modules), so the checkout's own build is never touched.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const BUILD_MS = 180_000;

let copy = '';

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [join(copy, 'main', 'edges', 'cli', 'pixelfleet.mjs'), ...args], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, PIXELFLEET_HOME: join(copy, '.home') },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'pixelfleet-build-'));
  for (const entry of ['main', 'shared', 'package.json', 'electron.config.ts', 'tsconfig.base.json', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.e2e.json']) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the pixelfleet command runs built code', () => {
  it('builds on the first run, then starts from out/main without rebuilding', () => {
    const first = run('--version');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${packageJson.version}\n`);
    expect(first.stderr).toContain('rebuilding the main process (the main process is not built yet)');
    expect(existsSync(join(copy, 'out', 'main', 'cli.js'))).toBe(true);
    expect(existsSync(join(copy, 'out', 'main', 'index.js'))).toBe(true);

    const second = run('--version');
    expect(second).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  }, BUILD_MS);

  it('runs the built file, not the TypeScript source', () => {
    // Mark the built CLI; the mark shows only if the built file is what runs.
    const cli = join(copy, 'out', 'main', 'cli.js');
    const built = readFileSync(cli, 'utf8');
    expect(built).toContain('--version');
    expect(built).toMatch(/APP_VERSION = package_default\.version;/);
    writeFileSync(cli, built.replace(/APP_VERSION = package_default\.version;/, 'APP_VERSION = "built-mark";'));
    expect(run('--version').stdout).toBe('built-mark\n');
  }, BUILD_MS);

  it('rebuilds, saying so, when a source file is touched', () => {
    const source = join(copy, 'main', 'edges', 'cli', 'index.ts');
    const later = new Date(Date.now() + 5_000);
    utimesSync(source, later, later);
    const touched = run('--version');
    expect(touched.code).toBe(0);
    expect(touched.stderr).toContain('pixelfleet: rebuilding the main process (main/edges/cli/index.ts changed)');
    expect(touched.stderr).toMatch(/pixelfleet: rebuilt in \d+\.\d s/);
    // The mark is gone: the rebuilt file runs.
    expect(touched.stdout).toBe(`${packageJson.version}\n`);
    expect(run('--version').stderr).toBe('');
  }, BUILD_MS);

  it('picks up an edited source on the next start', () => {
    const source = join(copy, 'main', 'edges', 'cli', 'index.ts');
    writeFileSync(source, readFileSync(source, 'utf8').replace('a pixel world for your fleet of coding agents', 'an edited pixel world'));
    const edited = run('--help');
    expect(edited.stderr).toContain('main/edges/cli/index.ts changed');
    expect(edited.stdout).toContain('an edited pixel world');
  }, BUILD_MS);

  it('refuses to run stale code when the rebuild fails, and says why', () => {
    const source = join(copy, 'main', 'setup', 'args.ts');
    writeFileSync(source, `${readFileSync(source, 'utf8')}\nexport const broken = ;\n`);
    const failed = run('--version');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('pixelfleet: the main process did not build; fix the error and run again');
  }, BUILD_MS);
});
