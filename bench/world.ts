/**
 * World figures in Chromium: 200 demo agents spread over 30 stations — frames per second while everything animates,
 * page CPU per second when the scene is still, and the time from a journal append to the badge changing.
 */
import { chromium, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_ARGS } from '../playwright.config';
import { assistantLine, escapeCwd, userPromptLine } from '../main/fleet/demo/lines';
import { freshHome, removeHome, startHost, type RunningHost } from '../e2e/host';

type Ask = (channel: string, payload: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;

async function connect(host: RunningHost): Promise<{ ask: Ask; close: () => void }> {
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

    const still = await browser.newPage({ viewport: { width: 1366, height: 768 }, reducedMotion: 'reduce' });
    await still.goto(host.url);
    await still.waitForFunction(() => (window as unknown as { __pixelfleet?: { ticker(): { running: boolean } } }).__pixelfleet?.ticker().running === false, null, { timeout: 60_000 });
    await page.close();
    const idle = await measure(still, 5);
    log(`still scene (reduced motion, demo events still arriving): ${idle.fps.toFixed(1)} frames/s, page CPU ${(idle.cpu * 1000).toFixed(1)} ms/s`);

    // Journal append → badge: a Claude seat of our own, appended to by hand.
    const claudeHome = join(home, 'bench-claude');
    const cwd = '/bench/project';
    const sessionId = '0b1e7c2a-5d3f-4c8e-9a10-0000000000b1';
    const folder = join(claudeHome, 'projects', escapeCwd(cwd));
    const path = join(folder, `${sessionId}.jsonl`);
    await mkdir(folder, { recursive: true });
    const context = { sessionId, cwd, slug: 'bench-seat' };
    const at = () => new Date().toISOString();
    await writeFile(path, userPromptLine(context, { uuid: 'u-0', parentUuid: null, timestamp: at() }, 'prompt-0', 'Start.'));
    const hired = (await ask('agents.hire', { name: 'Bencher', role: 'builder', seat: { harness: 'claude', home: claudeHome, sessionId, cwd, path } })).value as { id: string };
    const badge = () => still.locator(`[data-agent="${hired.id}"]`).getAttribute('data-subagents');
    await still.waitForFunction((id) => document.querySelector(`[data-agent="${id}"]`)?.getAttribute('data-subagents') === '0', hired.id, { timeout: 30_000 }).catch(async (error) => {
      throw new Error(`the bench seat never showed 0 subagents (shows ${await badge()}): ${error}`);
    });
    const latencies: number[] = [];
    for (let round = 1; round <= 5; round += 1) {
      const line = assistantLine(context, { uuid: `a-${round}`, parentUuid: `u-${round - 1}`, timestamp: at() }, { messageId: `msg-${round}`, requestId: `req-${round}`, outputTokens: 10 }, {
        type: 'tool_use',
        id: `toolu_bench${String(round).padStart(20, '0')}`,
        name: 'Agent',
        input: { description: `Bench child ${round}`, prompt: 'Count.', subagent_type: 'general-purpose' },
      });
      const started = performance.now();
      await appendFile(path, line);
      const seen = await still
        .waitForFunction(([id, want]) => document.querySelector(`[data-agent="${id}"]`)?.getAttribute('data-subagents') === want, [hired.id, String(round)] as const, { timeout: 30_000, polling: 5 })
        .then(() => true, () => false);
      if (!seen) {
        log(`journal append → badge: not measured — the badge still shows ${await badge()} 30 s after append ${round}`);
        return;
      }
      latencies.push(performance.now() - started);
    }
    latencies.sort((first, second) => first - second);
    log(`journal append → badge: median ${latencies[2].toFixed(0)} ms, worst ${latencies[4].toFixed(0)} ms (5 appends; badge now ${await badge()})`);
  } finally {
    close();
    await browser.close();
    await host.stop();
    await removeHome(home);
  }
}
