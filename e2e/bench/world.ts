/**
 * World figures in Chromium: 200 demo agents spread over 30 stations — frames per second while everything animates,
 * page CPU per second when the scene is still, and the time from a journal append to the badge changing.
 */
import { chromium, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { assistantLine, escapeCwd, userPromptLine } from '../../main/demo/lines';
import { freshHome, removeHome, startHost, type RunningHost } from '../host';

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

async function measure(page: Page, seconds: number): Promise<{ fps: number; cpu: number }> {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const taskSeconds = async () => (await session.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
  const frames = () => page.evaluate(() => (window as unknown as { __pixelfleet: { ticker(): { frames: number } } }).__pixelfleet.ticker().frames);
  const [startFrames, startCpu] = [await frames(), await taskSeconds()];
  await page.waitForTimeout(seconds * 1000);
  const [endFrames, endCpu] = [await frames(), await taskSeconds()];
  await session.detach();
  return { fps: (endFrames - startFrames) / seconds, cpu: (endCpu - startCpu) / seconds };
}

/** Runs the world benchmark and prints its figures. */
export async function benchWorld(log: (line: string) => void): Promise<void> {
  const home = await freshHome('pixelfleet-bench-world-');
  const host = await startHost({ home, args: ['--demo', '--agents', '200'] });
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const { ask, close } = await connect(host);
  try {
    const personas = (await ask('personas.list', {})).value as { id: string }[];
    const builtIns = ['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher'];
    await Promise.all(personas.map((persona, index) => ask('personas.setRole', { personaId: persona.id, role: index % 30 < 6 ? builtIns[index % 30] : `Guild ${index % 30}` })));
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(host.url);
    await page.waitForFunction(() => (window as unknown as { __pixelfleet?: { state(): { fleet: unknown } } }).__pixelfleet?.state().fleet, null, { timeout: 60_000 });
    const stations = await page.locator('[data-station]').count();
    log(`${personas.length} agents over ${stations - 1} stations and the lobby`);

    const looping = await measure(page, 5);
    log(`sprite loops (working agents): ${looping.fps.toFixed(1)} frames/s, page CPU ${(looping.cpu * 1000).toFixed(0)} ms/s`);
    await Promise.all(personas.slice(0, 100).map((persona, index) => ask('personas.setRole', { personaId: persona.id, role: builtIns[(index + 1) % 6] })));
    const walking = await measure(page, 2);
    log(`100 agents walking: ${walking.fps.toFixed(1)} frames/s, page CPU ${(walking.cpu * 1000).toFixed(0)} ms/s`);

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
        await writeFile(path, userPromptLine({ sessionId, cwd, slug: 'bench' }, { uuid: 'u-0', parentUuid: null, timestamp: at() }, 'prompt-0', 'Start.'));
        seated.push({ sessionId, path });
      }
      const hiredIds: string[] = [];
      for (let index = 0; index < 200; index += 1) {
        const seat = seated[index];
        const role = index % 30 < 6 ? builtIns[index % 30] : `Guild ${index % 30}`;
        const hired = await quietSocket.ask('agents.hire', { name: `Idle ${index}`, role, ...(seat ? { seat: { harness: 'claude', home: claudeHome, sessionId: seat.sessionId, cwd, path: seat.path } } : {}) });
        hiredIds.push((hired.value as { id: string }).id);
      }
      const still = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await still.goto(quiet.url);
      await still.waitForFunction(() => document.querySelectorAll('[data-agent]').length >= 200, null, { timeout: 60_000 });
      await still.waitForFunction(() => (window as unknown as { __pixelfleet: { ticker(): { running: boolean } } }).__pixelfleet.ticker().running === false, null, { timeout: 60_000 });
      const idle = await measure(still, 5);
      log(`idle fleet (200 agents, 30 stations, no writes): ${idle.fps.toFixed(1)} frames/s, page CPU ${(idle.cpu * 1000).toFixed(1)} ms/s`);

      // Journal append → badge: parallel Agent calls (one message id) appended to one quiet seat.
      const { sessionId, path } = seated[0];
      const personaId = hiredIds[0];
      const context = { sessionId, cwd, slug: 'bench' };
      const badge = () => still.locator(`[data-agent="${personaId}"]`).getAttribute('data-subagents');
      const latencies: number[] = [];
      for (let round = 1; round <= 5; round += 1) {
        const line = assistantLine(context, { uuid: `a-${round}`, parentUuid: 'u-0', timestamp: new Date().toISOString() }, { messageId: 'msg-bench', requestId: 'req-bench', outputTokens: 10 }, {
          type: 'tool_use',
          id: `toolu_bench${String(round).padStart(20, '0')}`,
          name: 'Agent',
          input: { description: `Bench child ${round}`, prompt: 'Count.', subagent_type: 'general-purpose' },
        });
        const started = performance.now();
        await appendFile(path, line);
        const seen = await still
          .waitForFunction(([id, want]) => document.querySelector(`[data-agent="${id}"]`)?.getAttribute('data-subagents') === want, [personaId, String(round)] as const, { timeout: 30_000, polling: 5 })
          .then(() => true, () => false);
        if (!seen) {
          log(`journal append → badge: not seen — the badge still shows ${await badge()} 30 s after append ${round}`);
          return;
        }
        latencies.push(performance.now() - started);
      }
      const inOrder = latencies.map((latency) => latency.toFixed(0)).join(', ');
      latencies.sort((first, second) => first - second);
      log(`journal append → badge: median ${latencies[2].toFixed(0)} ms, worst ${latencies[4].toFixed(0)} ms (in order: ${inOrder} ms; badge now ${await badge()})`);
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
}
