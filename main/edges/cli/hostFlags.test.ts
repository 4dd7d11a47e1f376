/**
 * A host runs with Node's flags from hostFlags.mjs however it is started: the launcher's shebang (`npx pixelfleet
 * web`), `npm run web`, and the scripts that spawn the launcher themselves all give the same ones.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../../../package.json';
import { HOST_NODE_FLAGS } from './hostFlags.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const shebang = readFileSync(join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'utf8').split('\n')[0];

describe('the host’s Node flags', () => {
  it('are what the launcher’s shebang and `npm run web` pass', () => {
    expect(HOST_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(shebang).toBe(`#!/usr/bin/env -S node ${HOST_NODE_FLAGS.join(' ')}`);
    expect(packageJson.scripts.web).toBe(`node ${HOST_NODE_FLAGS.join(' ')} main/edges/cli/pixelfleet.mjs web`);
  });

  it('reach Node when a file with that shebang is run directly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-shebang-'));
    try {
      const script = join(dir, 'flags.mjs');
      writeFileSync(script, `${shebang}\nprocess.stdout.write(JSON.stringify(process.execArgv));\n`);
      chmodSync(script, 0o755);
      expect(JSON.parse(execFileSync(script, { encoding: 'utf8' }))).toEqual(HOST_NODE_FLAGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are given by the scripts that start the launcher themselves', () => {
    for (const file of ['main/dev/build/start.mjs', 'e2e/host.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(/\.\.\.HOST_NODE_FLAGS, (join\(root|\.\.\.\(process\.env)/);
    }
  });
});
