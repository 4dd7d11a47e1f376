/**
 * Remote figures of issue 42, over the stand-in ssh: how long a remote added to a running host (`remote add`) takes to
 * be on the page, and for 3 remotes of 100 demo agents each against the same 300 agents run locally, the page's update
 * cost (its CPU) and the update traffic it receives (remotePage.ts).
 */
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from '../host';
import { AGENTS_EACH, remotePageCost, REMOTES } from './remotePage';
import { atMost, type BenchTable } from './table';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
/** Times a remote is added and removed while the host runs. */
const ROUNDS = 3;

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

/** Runs issue 42's remote figures (part of the remote area). */
export async function benchRemoteLive(log: (line: string) => void, table: BenchTable): Promise<void> {
  table.add({ figure: 'remote added live (`remote add` on a running host) → on the page, worst of 3', goal: atMost(10_000), value: await addedLive(log), unit: 'ms' });
  // 4 fleets of hundreds of demo agents may not start on a small, busy machine: then the figures are unknown, not a crash.
  const cost = await remotePageCost(log).catch((error: Error) => {
    log(`${REMOTES} remotes × ${AGENTS_EACH}: not measured (${error.message.split('\n')[0]})`);
    return null;
  });
  const total = REMOTES * AGENTS_EACH;
  table.add({ figure: `${REMOTES} remotes × ${AGENTS_EACH} demo agents: page update traffic ÷ same ${total} agents local`, goal: atMost(1.2), value: cost && cost.local.bytesPerSecond > 0 ? cost.spread.bytesPerSecond / cost.local.bytesPerSecond : null, unit: '×' });
  table.add({ figure: `${REMOTES} remotes × ${AGENTS_EACH} demo agents: page update cost (page CPU, reduced motion) ÷ same ${total} agents local`, goal: atMost(1.2), value: cost?.ratio ?? null, unit: '×' });
}
