/**
 * Remote figures of issue 42, over the stand-in ssh: how long a remote added to a running host (`remote add`) takes to
 * be on the page, and the patch traffic a page receives for 3 remotes of 100 demo agents each against the same 300
 * agents run locally (the page's update cost: what it must receive and apply).
 */
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from '../host';
import { patchBytes, TRAFFIC_SECONDS } from './remote';
import { atMost, type BenchTable } from './table';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
/** Times a remote is added and removed while the host runs. */
const ROUNDS = 3;
/** Remotes and demo agents on each, for the update cost. */
const REMOTES = 3;
const AGENTS_EACH = 100;

function pixelfleet(home: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(process.execPath, [PIXELFLEET, ...args], { cwd: ROOT, env: { ...process.env, ...env, PIXELFLEET_HOME: home }, encoding: 'utf8' });
}

/** `remote add` on a running host → its agent attached on the page: the worst of ROUNDS, in ms (null if never seen). */
export async function addedLive(log: (line: string) => void): Promise<number | null> {
  const root = await freshHome('pixelfleet-bench-remote-live-');
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let host: RunningHost | null = null;
  try {
    const home = join(root, 'local');
    pixelfleet(join(root, 'box'), ['agents', 'hire', '--name', 'Far', '--role', 'builder']);
    host = await startHost({ home, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.waitForFunction(() => Boolean(window.__pixelfleet?.state().fleet), undefined, { timeout: 60_000 });
    const times: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const started = performance.now();
      pixelfleet(home, ['remote', 'add', 'box', 'box', '--command', `${process.execPath} ${PIXELFLEET}`]);
      const seen = await page.waitForSelector('[data-agent][data-host="box"]', { timeout: 30_000, state: 'attached' }).then(() => true, () => false);
      if (!seen) {
        log(`remote added live: not on the page 30 s after round ${round}`);
        return null;
      }
      times.push(performance.now() - started);
      pixelfleet(home, ['remote', 'remove', 'box']);
      await page.waitForSelector('[data-agent][data-host="box"]', { timeout: 30_000, state: 'detached' });
    }
    log(`remote added live → on the page (${ROUNDS} rounds, each including the \`remote add\` command itself): ${times.map((time) => `${time.toFixed(0)} ms`).join(', ')}`);
    return Math.max(...times);
  } finally {
    await browser.close();
    await host?.stop();
    await removeHome(root);
  }
}

/** Patch traffic of 3 remotes × 100 demo agents ÷ the same 300 agents local. */
export async function spreadCost(log: (line: string) => void): Promise<number | null> {
  const total = REMOTES * AGENTS_EACH;
  const localHome = await freshHome('pixelfleet-bench-remote-300-');
  let host = await startHost({ home: localHome, args: ['--demo', '--agents', String(total)] });
  let local: { bytes: number; patches: number };
  try {
    local = await patchBytes(host, (count) => count >= total, true);
  } finally {
    await host.stop();
    await removeHome(localHome);
  }
  const root = await freshHome('pixelfleet-bench-remote-3x100-');
  try {
    const home = join(root, 'local');
    for (let index = 1; index <= REMOTES; index += 1) {
      await writeFile(join(root, `box${index}.args`), JSON.stringify(['--demo', '--agents', String(AGENTS_EACH)]));
      pixelfleet(home, ['remote', 'add', `box${index}`, `box${index}`, '--command', `${process.execPath} ${PIXELFLEET}`]);
    }
    host = await startHost({ home, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
    let spread: { bytes: number; patches: number };
    try {
      spread = await patchBytes(host, (count) => count >= total, true);
    } finally {
      await host.stop();
    }
    const rate = (figures: { bytes: number }) => figures.bytes / TRAFFIC_SECONDS;
    log(`patch traffic, ${total} demo agents: local ${(rate(local) / 1024).toFixed(1)} KiB/s (${local.patches} updates), ${REMOTES} remotes of ${AGENTS_EACH} ${(rate(spread) / 1024).toFixed(1)} KiB/s (${spread.patches} updates)`);
    return rate(local) > 0 ? rate(spread) / rate(local) : null;
  } finally {
    await removeHome(root);
  }
}

/** Runs issue 42's remote figures (part of the remote area). */
export async function benchRemoteLive(log: (line: string) => void, table: BenchTable): Promise<void> {
  table.add({ figure: 'remote added live (`remote add` on a running host) → on the page, worst of 3', goal: atMost(10_000), value: await addedLive(log), unit: 'ms' });
  // 4 fleets of hundreds of demo agents may not start on a small, busy machine: then the figure is unknown, not a crash.
  const ratio = await spreadCost(log).catch((error: Error) => {
    log(`${REMOTES} remotes × ${AGENTS_EACH}: not measured (${error.message.split('\n')[0]})`);
    return null;
  });
  table.add({ figure: `${REMOTES} remotes × ${AGENTS_EACH} demo agents: page update traffic ÷ same ${REMOTES * AGENTS_EACH} agents local`, goal: atMost(1.2), value: ratio, unit: '×' });
}
