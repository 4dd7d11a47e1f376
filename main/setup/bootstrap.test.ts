// The one bootstrap, driven through a stand-in desktop shell (no Electron here): the demo runs in a throwaway home
// and never in the owner's, a failed start is shown with its reason and quits, and arguments are bounded alike.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_AGENTS_MAX, parseStartArgs, planHome, runDesktop, type DesktopShell } from './bootstrap';
import { UsageError } from './args';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-boot-'));
  dirs.push(dir);
  return dir;
}

/** A desktop shell that records what the bootstrap asked of it. */
function standInShell(argv: string[], env: NodeJS.ProcessEnv) {
  const calls: string[] = [];
  const record = { calls, dataFolder: null as string | null, error: null as { title: string; reason: string } | null, windows: 0 };
  const shell: DesktopShell = {
    argv,
    env,
    setDataFolder: (home) => {
      record.dataFolder = home;
      calls.push('setDataFolder');
    },
    whenReady: async () => {
      calls.push('ready');
    },
    openWindow: () => {
      record.windows += 1;
      calls.push('window');
    },
    showBootError: (title, reason) => {
      record.error = { title, reason };
      calls.push('error');
    },
    quit: () => calls.push('quit'),
    log: () => {},
  };
  return { shell, record };
}

describe('start arguments', () => {
  it('are parsed by one parser: bounded --agents, strict for the CLI, tolerant of Electron switches on the desktop', () => {
    expect(parseStartArgs(['--demo', '--agents', '12', '--port', '0'], { strict: true })).toEqual({ demo: true, agents: 12, home: null, port: 0, open: null, portGiven: true });
    expect(parseStartArgs([], { strict: true, demo: true })).toMatchObject({ demo: true, agents: 6 });
    expect(() => parseStartArgs(['--agents', '0'], { strict: true })).toThrow(UsageError);
    expect(() => parseStartArgs(['--agents', String(DEMO_AGENTS_MAX + 1)], { strict: true })).toThrow(/from 1 to 500/);
    expect(() => parseStartArgs(['--demo', '--verbose'], { strict: true })).toThrow(/Unknown option --verbose/);
    const desktop = parseStartArgs(['/opt/pixelfleet', '--no-sandbox', '--demo', '--agents', '3', '--inspect=9229'], { strict: false });
    expect(desktop).toMatchObject({ demo: true, agents: 3 });
    expect(() => parseStartArgs(['--agents', '900'], { strict: false })).toThrow(UsageError);
  });

  it('plan the home: --home, then PIXELFLEET_HOME, a throwaway folder for a demo, else the owner home', async () => {
    const owner = await tempDir();
    expect(planHome({ demo: true, home: '/data/named' }, { HOME: owner })).toEqual({ home: '/data/named', throwaway: false });
    expect(planHome({ demo: true, home: null }, { HOME: owner, PIXELFLEET_HOME: '/data/env' })).toEqual({ home: '/data/env', throwaway: false });
    expect(planHome({ demo: false, home: null }, { HOME: owner })).toEqual({ home: join(owner, '.config', 'pixelfleet'), throwaway: false });
    const demo = planHome({ demo: true, home: null }, { HOME: owner });
    dirs.push(demo.home);
    expect(demo.throwaway).toBe(true);
    expect(demo.home.startsWith(join(owner, '.config'))).toBe(false);
  });
});

describe('the desktop bootstrap (stand-in shell)', () => {
  it('runs the demo in a throwaway home, never writing the owner store, and removes it on stop', async () => {
    const owner = await tempDir();
    const env = { HOME: owner, CLAUDE_CONFIG_DIR: join(owner, 'claude'), CODEX_HOME: join(owner, 'codex'), XDG_DATA_HOME: join(owner, 'data') };
    const { shell, record } = standInShell(['/opt/pixelfleet', '--demo', '--agents', '2'], env);
    const started = await runDesktop(shell);
    expect(started).not.toBeNull();
    expect(record.calls).toEqual(['setDataFolder', 'ready', 'window']);
    const home = record.dataFolder!;
    expect(home.startsWith(owner)).toBe(false);
    expect((await started!.app.personas.list()).length).toBe(2);
    expect(existsSync(join(home, 'personas.json'))).toBe(true);
    // The owner's own app home was never created, let alone written.
    expect(existsSync(join(owner, '.config', 'pixelfleet'))).toBe(false);
    await started!.stop();
    expect(existsSync(home)).toBe(false);
    expect(await readdir(owner)).not.toContain('.config');
  });

  it('shows a failed start in a dialog with the reason and quits, instead of hanging without a window', async () => {
    const owner = await tempDir();
    const blocker = join(owner, 'not-a-folder');
    await writeFile(blocker, 'a file where the data folder should be');
    const { shell, record } = standInShell(['/opt/pixelfleet'], { HOME: owner, PIXELFLEET_HOME: join(blocker, 'pixelfleet') });
    expect(await runDesktop(shell)).toBeNull();
    expect(record.calls).toEqual(['setDataFolder', 'ready', 'error', 'quit']);
    expect(record.error?.title).toBe('Pixelfleet could not start');
    expect(record.error?.reason).toContain(join(blocker, 'pixelfleet'));
    expect(record.windows).toBe(0);
  });

  it('shows a bad argument the same way', async () => {
    const { shell, record } = standInShell(['/opt/pixelfleet', '--demo', '--agents', '0'], { HOME: await tempDir() });
    expect(await runDesktop(shell)).toBeNull();
    expect(record.calls).toEqual(['error', 'quit']);
    expect(record.error?.reason).toMatch(/--agents takes a whole number/);
  });
});
