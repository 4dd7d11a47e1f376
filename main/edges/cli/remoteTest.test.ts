/**
 * `pixelfleet remote test` over three stand-in remotes reached through the stand-in `ssh` (PIXELFLEET_SSH): one that
 * runs Pixelfleet, one whose "host" is down, one that speaks another contract version.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../../../shared/contract';
import packageJson from '../../../package.json';
import { main } from './index';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const OLD_PEER = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'old-peer.mjs');
const PIXELFLEET = `${process.execPath} ${join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;

let root: string;
let env: NodeJS.ProcessEnv;

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pixelfleet-remote-test-'));
  const home = join(root, 'local');
  env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_HOME: home, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
  // live has a Claude home and a Codex home (as the stand-in sets them for it), no OpenCode data.
  await mkdir(join(root, 'live', 'claude'), { recursive: true });
  await mkdir(join(root, 'live', 'codex'), { recursive: true });
  expect((await cli(['remote', 'add', 'live', 'live', '--command', PIXELFLEET])).code).toBe(0);
  expect((await cli(['remote', 'add', 'dead', 'dead', '--command', PIXELFLEET])).code).toBe(0);
  expect((await cli(['remote', 'add', 'old', 'old', '--command', `${process.execPath} ${OLD_PEER}`])).code).toBe(0);
  await writeFile(join(root, 'dead.down'), '');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('pixelfleet remote test', () => {
  it('reports a reachable remote: latency, its version and contract, which homes it has, tmux; exit 0', async () => {
    const run = await cli(['remote', 'test', 'live', '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toEqual({
      reachable: true,
      latencyMs: expect.any(Number),
      app: packageJson.version,
      contract: CONTRACT_VERSION,
      harnesses: { claude: true, codex: true, opencode: false },
      tmux: expect.any(Boolean),
    });
    expect(result.latencyMs).toBeGreaterThan(0);
    const text = await cli(['remote', 'test', 'live']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^live: reachable in \d+ ms\n/);
    expect(text.stdout).toContain('homes found: claude yes, codex yes, opencode no');
  });

  it('reports a dead remote with ssh’s own reason; exit 1', async () => {
    const run = await cli(['remote', 'test', 'dead', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      reachable: false,
      latencyMs: null,
      app: null,
      contract: null,
      harnesses: { claude: null, codex: null, opencode: null },
      tmux: null,
      error: 'ssh: connect to host dead port 22: Connection refused',
    });
  });

  it('tells a remote of another contract version which Pixelfleet it needs; exit 1', async () => {
    const run = await cli(['remote', 'test', 'old', '--json']);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ reachable: false, app: '99.0.0', contract: 999 });
    expect(result.error).toMatch(new RegExp(`^needs Pixelfleet ${packageJson.version.replace(/\./g, '\\.')} on old `));
    const text = await cli(['remote', 'test', 'old']);
    expect(text.stdout).toContain(`old: not reachable — needs Pixelfleet ${packageJson.version} on old`);
  });

  it('refuses a name that is not listed', async () => {
    const run = await cli(['remote', 'test', 'nosuch']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no remote is named nosuch');
  });
});

describe('pixelfleet agents launch --host', () => {
  it('refuses a remote that is not listed, and one that is down, launching nothing here', async () => {
    const missing = await cli(['agents', 'launch', '--host', 'nosuch', '--harness', 'claude', '--role', 'builder', '--cwd', '/srv/app']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No remote is named nosuch.');
    const down = await cli(['agents', 'launch', '--host', 'dead', '--harness', 'claude', '--role', 'builder', '--cwd', '/srv/app']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('dead is unreachable since');
    expect(existsSync(join(root, 'local', 'personas.json'))).toBe(false);
  });
});
