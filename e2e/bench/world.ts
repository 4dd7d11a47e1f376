/**
 * World figures in Chromium (software WebGL), as issue 17's table names them: page CPU while 200 demo agents over 30
 * stations animate (and the drawn frame rate), while 100 of them walk, and while the owner pans and zooms; the same
 * fleet with reduced motion (what the fleet's changes cost without any animation); page CPU when the world is still;
 * the still page while the usage background pass reads a large journal (usageWorld.ts); and the time from a journal
 * append to the badge on screen (p95 of 20).
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { assistantLine, escapeCwd, userPromptLine } from '../../main/dev/demo/lines';
import { MIN_REFRESH_INTERVAL_MS, refreshIntervalMs } from '../../main/core/fleet/LiveUpdates';
import { MOVING_FPS } from '../../renderer/world/frameLoop';
import { BUILT_IN_ROLES } from '../../shared/roles';
import { freshHome, removeHome, startHost, type RunningHost } from '../host';
import { atLeast, atMost, below, type BenchTable } from './table';
import { benchFiveHundred } from './world500';
import { benchIdleDuringUsagePass } from './usageWorld';
import { benchIdleWithPacePanel } from './paceWorld';

/** Appends measured for the append → badge figure (its goal is a p95, so at least 20). */
const BADGE_SAMPLES = 20;
/**
 * Quiet time before each append, so each one reaches a host at rest, as a new subagent does. Back to back, an append
 * would land just after the previous refresh and wait out the rest of the host's refresh interval (for its 200 seats)
 * instead.
 */
const BADGE_QUIET_MS = refreshIntervalMs(200) + MIN_REFRESH_INTERVAL_MS;

type Ask = (channel: string, payload: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;

/** A WebSocket client of the host's bridge, asking channels as the page does. */
export async function connect(host: RunningHost): Promise<{ ask: Ask; close: () => void }> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: host.origin } });
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let nextId = 1;
  const waiting = new Map<number, (message: { ok: boolean; value?: unknown }) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ask: Ask = (channel, payload) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, channel, payload }));
    });
  return { ask, close: () => socket.close() };
}

/** Frames per second, page CPU (s/s) and frame time (ms of page CPU per drawn frame) while `during` runs. */
async function measure(page: Page, seconds: number, during?: (until: number) => Promise<void>): Promise<{ fps: number; cpu: number; frameMs: number }> {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const taskSeconds = async () => (await session.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
  const frames = () => page.evaluate(() => (window as unknown as { __pixelfleet: { ticker(): { frames: number } } }).__pixelfleet.ticker().frames);
  const [startFrames, startCpu, started] = [await frames(), await taskSeconds(), performance.now()];
  if (during) await during(started + seconds * 1000);
  else await page.waitForTimeout(seconds * 1000);
  const [endFrames, endCpu, ended] = [await frames(), await taskSeconds(), performance.now()];
  await session.detach();
  const elapsed = (ended - started) / 1000;
  const drawn = endFrames - startFrames;
  return { fps: drawn / elapsed, cpu: (endCpu - startCpu) / elapsed, frameMs: drawn > 0 ? ((endCpu - startCpu) * 1000) / drawn : Number.NaN };
}

/** Pans the view with the mouse (dragging empty floor) and zooms it with the wheel until `until`, as the owner would. */
async function panAndZoom(page: Page, until: number): Promise<void> {
  const view = () => page.evaluate(() => (window as unknown as { __pixelfleet: { view(): { offsetX: number; offsetY: number } } }).__pixelfleet.view());
  let round = 0;
  while (performance.now() < until) {
    // The floor's margin at its top-left corner holds no agent, so a drag there pans.
    const { offsetX, offsetY } = await view();
    const from = { x: Math.max(2, offsetX + 2), y: Math.max(40, offsetY + 2) };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    const direction = round % 2 === 0 ? 1 : -1;
    await page.mouse.move(from.x + 160 * direction, from.y + 90 * direction, { steps: 12 });
    await page.mouse.up();
    await page.mouse.move(683, 420);
    await page.mouse.wheel(0, direction > 0 ? -120 : 120);
    round += 1;
  }
}

/** The role of a fleet's index-th agent spread over 30 stations: the six built-in roles, then 24 custom ones. */
function stationRole(index: number): string {
  return index % 30 < 6 ? BUILT_IN_ROLES[index % 30] : `Guild ${index % 30}`;
}

/** Spreads the demo's agents over 30 stations (the six built-in roles and 24 custom ones), as the world rows measure; the agents. */
export async function spreadOverStations(ask: Ask): Promise<{ id: string }[]> {
  const personas = (await ask('personas.list', {})).value as { id: string }[];
  await Promise.all(personas.map((persona, index) => ask('personas.setRole', { personaId: persona.id, role: stationRole(index) })));
  return personas;
}

/** A 1280×800 page of the host's world, once its first fleet is shown. */
export async function openWorldPage(browser: Browser, host: RunningHost): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.waitForFunction(() => (window as unknown as { __pixelfleet?: { state(): { fleet: unknown } } }).__pixelfleet?.state().fleet, null, { timeout: 60_000 });
  return page;
}

/** Runs the world benchmark and prints its figures. */
export async function benchWorld(log: (line: string) => void, table: BenchTable): Promise<void> {
  const home = await freshHome('pixelfleet-bench-world-');
  const host = await startHost({ home, args: ['--demo', '--agents', '200'] });
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const { ask, close } = await connect(host);
  try {
    const personas = await spreadOverStations(ask);
    const page = await openWorldPage(browser, host);
    const stations = await page.locator('[data-station]').count();
    const canvas = await page.evaluate(() => {
      const hook = (window as unknown as { __pixelfleet: { rendererName: string; desynchronized: boolean } }).__pixelfleet;
      return `${hook.rendererName}${hook.desynchronized ? ', low-latency (desynchronized) canvas' : ''}`;
    });
    log(`${personas.length} agents over ${stations - 1} stations and the lobby (${canvas})`);

    const looping = await measure(page, 5);
    const working = await page.evaluate(() => (window as unknown as { __pixelfleet: { seating(): { pose: string }[] } }).__pixelfleet.seating().filter((seat) => seat.pose === 'work').length);
    log(`${personas.length} agents animating (${working} typing): ${looping.fps.toFixed(1)} frames/s, frame time ${looping.frameMs.toFixed(1)} ms, page CPU ${(looping.cpu * 1000).toFixed(0)} ms/s`);
    // Each sprite loop's own cadence is 10 fps, in two phase groups (20 world frames a second); the demo's team
    // messages fly at the walking cadence now and then.
    // Issue 43's goal (tighter than issue 17's ≤ 150 ms/s at ≥ 10 frames/s, which a holding figure also meets).
    table.add({ figure: `${personas.length} agents animating`, goal: atMost(80), value: looping.cpu * 1000, unit: 'ms/s', also: { text: 'at ≥ 20 frames/s', holds: looping.fps >= 20 }, frames: looping.fps });

    // The same fleet and the same stream of changes with nothing animating: what the snapshots themselves cost.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = await measure(page, 5);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    log(`${personas.length} agents, reduced motion (the fleet's changes, no animation): ${still.fps.toFixed(1)} frames/s, page CPU ${(still.cpu * 1000).toFixed(0)} ms/s`);
    table.add({ figure: `${personas.length} agents, reduced motion (the fleet's changes only): page CPU`, goal: atMost(30), value: still.cpu * 1000, unit: 'ms/s', frames: still.fps });

    const moving = await measure(page, 5, (until) => panAndZoom(page, until));
    log(`pan and zoom over animating agents: ${moving.fps.toFixed(1)} frames/s, frame time ${moving.frameMs.toFixed(1)} ms, page CPU ${(moving.cpu * 1000).toFixed(0)} ms/s`);
    // A pan is drawn as fast as the pointer moves the camera: each frame must fit a walking interval at least, and below
    // 20 fps a pan stutters.
    table.add({ figure: `pan and zoom over ${personas.length} animating agents: frame time (page CPU per drawn frame)`, goal: atMost(Math.floor(1000 / MOVING_FPS)), value: moving.frameMs, unit: 'ms', also: { text: 'at ≥ 20 frames/s', holds: moving.fps >= 20 }, frames: moving.fps });
    table.add({ figure: `pan and zoom over ${personas.length} animating agents`, goal: atLeast(30), value: moving.fps, unit: 'frames/s', frames: moving.fps });
    await page.keyboard.press('f');
    await Promise.all(personas.slice(0, 100).map((persona, index) => ask('personas.setRole', { personaId: persona.id, role: BUILT_IN_ROLES[(index + 1) % 6] })));
    const walking = await measure(page, 3);
    log(`100 agents walking: ${walking.fps.toFixed(1)} frames/s, page CPU ${(walking.cpu * 1000).toFixed(0)} ms/s`);
    // Issue 43's goal (tighter than issue 17's ≤ 300 ms/s at ≥ 20 frames/s, which a holding figure also meets).
    table.add({ figure: '100 agents walking', goal: atMost(150), value: walking.cpu * 1000, unit: 'ms/s', also: { text: 'at ≥ 24 frames/s', holds: walking.fps >= 24 }, frames: walking.fps });

    await page.close();
    close();
    await host.stop();

    // An idle fleet: 200 agents over 30 stations whose sessions are quiet; the scene should stop drawing.
    const quietHome = await freshHome('pixelfleet-bench-idle-');
    const quiet = await startHost({ home: quietHome });
    const quietSocket = await connect(quiet);
    try {
      const claudeHome = join(quietHome, 'claude');
      const cwd = '/bench/project';
      const folder = join(claudeHome, 'projects', escapeCwd(cwd));
      await mkdir(folder, { recursive: true });
      const at = () => new Date(Date.now() - 120_000).toISOString();
      const seated: { sessionId: string; path: string }[] = [];
      for (let index = 0; index < 20; index += 1) {
        const sessionId = `0b1e7c2a-5d3f-4c8e-9a10-${String(index).padStart(12, '0')}`;
        const path = join(folder, `${sessionId}.jsonl`);
        // A finished turn: the seat waits for its owner, so nothing types and the scene can stop drawing.
        const context = { sessionId, cwd, slug: 'bench' };
        await writeFile(
          path,
          userPromptLine(context, { uuid: 'u-0', parentUuid: null, timestamp: at() }, 'prompt-0', 'Start.') +
            assistantLine(context, { uuid: 'a-0', parentUuid: 'u-0', timestamp: at() }, { messageId: 'msg-0', requestId: 'req-0', outputTokens: 5 }, { type: 'text', text: 'Done.' }),
        );
        seated.push({ sessionId, path });
      }
      const hiredIds: string[] = [];
      for (let index = 0; index < 200; index += 1) {
        const seat = seated[index];
        const role = stationRole(index);
        const hired = await quietSocket.ask('agents.hire', { name: `Idle ${index}`, role, ...(seat ? { seat: { harness: 'claude', home: claudeHome, sessionId: seat.sessionId, cwd, path: seat.path } } : {}) });
        hiredIds.push((hired.value as { id: string }).id);
      }
      const still = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await still.goto(quiet.url);
      await still.waitForFunction(() => document.querySelectorAll('[data-agent]').length >= 200, null, { timeout: 60_000 });
      await still.waitForFunction(() => (window as unknown as { __pixelfleet: { ticker(): { running: boolean } } }).__pixelfleet.ticker().running === false, null, { timeout: 60_000 });
      const idle = await measure(still, 5);
      log(`idle world page (200 agents, 30 stations, no writes): ${idle.fps.toFixed(1)} frames/s, page CPU ${(idle.cpu * 1000).toFixed(1)} ms/s`);
      table.add({ figure: 'idle world page', goal: below(5), value: idle.cpu * 1000, unit: 'ms/s' });
      await benchIdleWithPacePanel(still, measure, log, table); // issue 41
      await benchIdleDuringUsagePass(still, quietSocket.ask, { claudeHome, folder, cwd }, measure, log, table);

      // Journal append → badge: parallel Agent calls (one message id) appended to one quiet seat.
      const { sessionId, path } = seated[0];
      const personaId = hiredIds[0];
      const context = { sessionId, cwd, slug: 'bench' };
      const badge = () => still.locator(`[data-agent="${personaId}"]`).getAttribute('data-subagents');
      const latencies: number[] = [];
      for (let round = 1; round <= BADGE_SAMPLES; round += 1) {
        const line = assistantLine(context, { uuid: `a-${round}`, parentUuid: 'u-0', timestamp: new Date().toISOString() }, { messageId: 'msg-bench', requestId: 'req-bench', outputTokens: 10 }, {
          type: 'tool_use',
          id: `toolu_bench${String(round).padStart(20, '0')}`,
          name: 'Agent',
          input: { description: `Bench child ${round}`, prompt: 'Count.', subagent_type: 'general-purpose' },
        });
        await still.waitForTimeout(BADGE_QUIET_MS);
        const started = performance.now();
        await appendFile(path, line);
        const seen = await still
          .waitForFunction(([id, want]) => document.querySelector(`[data-agent="${id}"]`)?.getAttribute('data-subagents') === want, [personaId, String(round)] as const, { timeout: 30_000, polling: 5 })
          .then(() => true, () => false);
        if (!seen) {
          log(`journal append → badge: not seen — the badge still shows ${await badge()} 30 s after append ${round}`);
          table.add({ figure: 'journal append → badge on screen, p95', goal: below(100), value: null, unit: 'ms' });
          return;
        }
        latencies.push(performance.now() - started);
      }
      const inOrder = latencies.map((latency) => latency.toFixed(0)).join(', ');
      latencies.sort((first, second) => first - second);
      // Nearest rank: the 19th of 20.
      const p95 = latencies[Math.ceil(latencies.length * 0.95) - 1];
      log(`journal append → badge: median ${latencies[Math.floor(latencies.length / 2)].toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, worst ${latencies[latencies.length - 1].toFixed(0)} ms (in order: ${inOrder} ms; badge now ${await badge()})`);
      table.add({ figure: 'journal append → badge on screen, p95', goal: below(100), value: p95, unit: 'ms' });
    } finally {
      quietSocket.close();
      await quiet.stop();
      await removeHome(quietHome);
    }
  } finally {
    close();
    await browser.close();
    await host.stop();
    await removeHome(home);
  }
  await benchFiveHundred(log, table, measure);
}
