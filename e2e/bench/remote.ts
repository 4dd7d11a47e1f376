/**
 * Remote figures (issue 28), over the stand-in ssh (main/edges/remote/fixtures/stand-in-ssh.mjs) running `serve --stdio`
 * locally: the patch traffic a page receives for a remote fleet of 100 demo agents against the same demo fleet run
 * locally, and the time from an append on a remote's journal to the badge on the local page.
 */
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { agentCompleted, assistantLine, escapeCwd, toolResultLine, userPromptLine } from '../../main/dev/demo/lines';
import { MIN_REFRESH_INTERVAL_MS, refreshIntervalMs } from '../../main/core/fleet/LiveUpdates';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from '../host';
import { atMost, type BenchTable } from './table';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
/** Demo agents in each fleet compared. */
const AGENTS = 100;
/** Seconds of patch traffic counted per fleet (after it settled). */
export const TRAFFIC_SECONDS = 30;
/** Seconds a fleet runs before counting (the first whole snapshot and the demo's start are not patches). */
const SETTLE_SECONDS = 10;
/** Appends measured for the badge. */
const ROUNDS = 20;
/**
 * The quiet before each append, as the world's append → badge row keeps (three refresh floors), and at least a remote
 * merge's floor: each append's latency is that of a lone change, not of the floors an append right after the last one
 * waits out.
 */
const BADGE_QUIET_MS = Math.max(3 * MIN_REFRESH_INTERVAL_MS, refreshIntervalMs(300) + MIN_REFRESH_INTERVAL_MS);

function pixelfleet(home: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(process.execPath, [PIXELFLEET, ...args], { cwd: ROOT, env: { ...process.env, ...env, PIXELFLEET_HOME: home }, encoding: 'utf8' });
}

/** Bytes of fleet.patched and jobs.patched events (with `whole`, also whole ones) a page's socket receives, after settling. */
export async function patchBytes(host: RunningHost, seats: (count: number) => boolean, whole = false): Promise<{ bytes: number; patches: number }> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: host.origin } });
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let counting = false;
  let bytes = 0;
  let patches = 0;
  let seen = 0;
  socket.on('message', (data) => {
    const text = data.toString();
    const message = JSON.parse(text) as { event?: string; payload?: { snapshot?: { seats: unknown[] } } };
    if (message.event === 'fleet.changed') seen = message.payload?.snapshot?.seats.length ?? seen;
    // `whole`: whole snapshots and boards sent after settling count too (the page applies those as well).
    if (counting && (message.event === 'fleet.patched' || message.event === 'jobs.patched' || (whole && (message.event === 'fleet.changed' || message.event === 'jobs.changed')))) {
      bytes += Buffer.byteLength(text);
      patches += 1;
    }
  });
  socket.send(JSON.stringify({ id: 1, channel: 'fleet.read', payload: {} }));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const read = await new Promise<number>((resolve) => {
      const id = Math.floor(Math.random() * 1e9);
      const on = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; value?: { seats: unknown[] } };
        if (message.id !== id) return;
        socket.off('message', on);
        resolve(message.value?.seats.length ?? 0);
      };
      socket.on('message', on);
      socket.send(JSON.stringify({ id, channel: 'fleet.read', payload: {} }));
    });
    if (seats(Math.max(read, seen))) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  counting = true;
  await new Promise((resolve) => setTimeout(resolve, TRAFFIC_SECONDS * 1000));
  socket.close();
  return { bytes, patches };
}

/** Runs the remote benchmark. */
export async function benchRemote(log: (line: string) => void, table: BenchTable): Promise<void> {
  // The same demo fleet, first local, then as a remote (the host itself runs no fleet of its own).
  const localHome = await freshHome('pixelfleet-bench-remote-local-');
  let host = await startHost({ home: localHome, args: ['--demo', '--agents', String(AGENTS)] });
  let local: { bytes: number; patches: number };
  try {
    local = await patchBytes(host, (count) => count >= AGENTS);
  } finally {
    await host.stop();
    await removeHome(localHome);
  }
  const root = await freshHome('pixelfleet-bench-remote-');
  try {
    await writeFile(join(root, 'fleet.args'), JSON.stringify(['--demo', '--agents', String(AGENTS)]));
    const home = join(root, 'local');
    pixelfleet(home, ['remote', 'add', 'fleet', 'fleet', '--command', `${process.execPath} ${PIXELFLEET}`]);
    host = await startHost({ home, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
    let remote: { bytes: number; patches: number };
    try {
      remote = await patchBytes(host, (count) => count >= AGENTS);
    } finally {
      await host.stop();
    }
    const rate = (figures: { bytes: number }) => figures.bytes / TRAFFIC_SECONDS;
    log(`patch traffic, ${AGENTS} demo agents: local ${(rate(local) / 1024).toFixed(1)} KiB/s (${local.patches} patches), remote ${(rate(remote) / 1024).toFixed(1)} KiB/s (${remote.patches} patches) over ${TRAFFIC_SECONDS} s`);
    table.add({ figure: `remote (${AGENTS} demo agents) patch traffic ÷ same fleet local`, goal: atMost(1.2), value: rate(local) > 0 ? rate(remote) / rate(local) : null, unit: '×' });
  } finally {
    await removeHome(root);
  }
  const far = await badgeLatency('remote', log);
  // The same appends on a seat of the host itself, for comparison on this machine (not a goal).
  const near = await badgeLatency('local', log);
  log(`append → badge p95: remote ${far === null ? 'not seen' : `${far.toFixed(0)} ms`}, the same on a local seat ${near === null ? 'not seen' : `${near.toFixed(0)} ms`}`);
  table.add({ figure: 'remote journal append → badge on the local page, p95', goal: atMost(200), value: far, unit: 'ms' });
  await (await import('./remoteLive')).benchRemoteLive(log, table);
}

/** Append on a remote's (or, to compare, a local) journal → the badge on the local page: the p95 in ms, or null if unseen. */
async function badgeLatency(where: 'remote' | 'local', log: (line: string) => void): Promise<number | null> {
  const root = await freshHome('pixelfleet-bench-remote-badge-');
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let host: RunningHost | null = null;
  try {
    const home = join(root, 'local');
    const remoteHome = where === 'remote' ? join(root, 'box') : home;
    const cwd = '/bench/remote';
    const folder = join(remoteHome, 'claude', 'projects', escapeCwd(cwd));
    await mkdir(folder, { recursive: true });
    const sessionId = '0b1e7c2a-5d3f-4c8e-9a10-00000000b001';
    const path = join(folder, `${sessionId}.jsonl`);
    const context = { sessionId, cwd, slug: 'bench' };
    await writeFile(path, userPromptLine(context, { uuid: 'u-0', parentUuid: null, timestamp: new Date().toISOString() }, 'prompt-0', 'Start.'));
    const remoteEnv = { CLAUDE_CONFIG_DIR: join(remoteHome, 'claude'), CODEX_HOME: join(remoteHome, 'codex'), XDG_DATA_HOME: join(remoteHome, 'data'), OPENCODE_DB: '' };
    pixelfleet(remoteHome, ['seats', 'open', `claude:${sessionId}`, '--name', 'Far'], remoteEnv);
    if (where === 'remote') pixelfleet(home, ['remote', 'add', 'box', 'box', '--command', `${process.execPath} ${PIXELFLEET}`]);
    host = await startHost({ home, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    const selector = where === 'remote' ? '[data-agent][data-host="box"]' : '[data-agent]';
    await page.waitForSelector(selector, { timeout: 60_000, state: 'attached' });
    const latencies: number[] = [];
    let uuid = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      const starting = round % 2 === 1;
      const toolUseId = `toolu_bench${String(Math.ceil(round / 2)).padStart(20, '0')}`;
      const base = { uuid: `l-${++uuid}`, parentUuid: `l-${uuid - 1}`, timestamp: new Date().toISOString() };
      const line = starting
        ? assistantLine(context, base, { messageId: `msg-${round}`, requestId: `req-${round}`, outputTokens: 10 }, {
            type: 'tool_use',
            id: toolUseId,
            name: 'Agent',
            input: { description: `Look ${round}`, prompt: 'Look around.', subagent_type: 'Explore' },
          })
        : toolResultLine(context, base, toolUseId, agentCompleted(`a${String(round).padStart(16, '0')}`, 'Explore', 'Look around.', 'Done.', { totalTokens: 10, toolUses: 1, durationMs: 100 }));
      const want = starting ? '1' : '0';
      await new Promise((resolve) => setTimeout(resolve, BADGE_QUIET_MS));
      const started = performance.now();
      await appendFile(path, line);
      const seen = await page
        .waitForFunction(([css, expected]) => document.querySelector(css)?.getAttribute('data-subagents') === expected, [selector, want] as const, { timeout: 30_000, polling: 5 })
        .then(() => true, () => false);
      if (!seen) {
        log(`${where} append → badge: not seen 30 s after append ${round}`);
        return null;
      }
      latencies.push(performance.now() - started);
    }
    const sorted = [...latencies].sort((first, second) => first - second);
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1];
    log(`${where} append → badge (${ROUNDS} appends, start and end in turn): median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, worst ${sorted[sorted.length - 1].toFixed(0)} ms`);
    return p95;
  } finally {
    await browser.close();
    await host?.stop();
    await removeHome(root);
  }
}
