/**
 * Not a bench area: a profile of the page under the 200-agent demo (a Chromium trace and a CPU profile per phase),
 * summed into the top costs on the page's main thread, to see where the world bench's page CPU goes.
 * `node main/edges/cli/run-ts.mjs e2e/bench/profileWorld.ts [seconds]`
 */
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { freshHome, removeHome, startHost } from '../host';
import { connect, openWorldPage, spreadOverStations } from './world';

const SECONDS = Number(process.argv[2]) || 5;
type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; cat: string; args?: { name?: string; chrome_mojo_event_info?: { mojo_interface_tag?: string; watcher_notify_interface_tag?: string; ipc_hash?: number } } };

/** An event's name, with the interface a mojo message was for (which part of the browser talks to the page). */
function nameOf(event: TraceEvent): string {
  const mojo = event.args?.chrome_mojo_event_info;
  return mojo ? `${event.name} (${mojo.mojo_interface_tag ?? mojo.watcher_notify_interface_tag ?? mojo.ipc_hash ?? '?'})` : event.name;
}
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };

/** Self time per trace event name on the renderer main thread (events nested in others count only their own part). */
function summarise(events: TraceEvent[], seconds: number): string[] {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) return ['no renderer main thread in the trace'];
  const complete = events.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  for (const event of complete) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur! <= event.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(nameOf(parent), (self.get(nameOf(parent)) ?? 0) - event.dur!);
    self.set(nameOf(event), (self.get(nameOf(event)) ?? 0) + event.dur!);
    stack.push(event);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([name, micros]) => `${(micros / 1000 / seconds).toFixed(1).padStart(7)} ms/s  ${name}`);
}

/** Self time per JavaScript function (with its file), from a CPU profile. */
function summariseProfile(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, seconds: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const label = (node: ProfileNode | undefined) => (node ? `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}` : '-');
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14);
  const lines = top.map(([name, micros]) => `${(micros / 1000 / seconds).toFixed(1).padStart(7)} ms/s  ${name}`);
  // Who calls the top five (not idle or program): the chain of three callers, by time.
  for (const [name] of top.filter(([name]) => !name.startsWith('(')).slice(0, 5)) {
    const chains = new Map<string, number>();
    profile.samples.forEach((id, index) => {
      const node = byId.get(id)!;
      if (label(node) !== name) return;
      const one = parents.get(node.id);
      const two = one && parents.get(one.id);
      const three = two && parents.get(two.id);
      const chain = `${label(one)} < ${label(two)} < ${label(three)}`;
      chains.set(chain, (chains.get(chain) ?? 0) + (profile.timeDeltas[index] ?? 0));
    });
    lines.push(`   ${name} called by:`);
    for (const [chain, micros] of [...chains.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3)) lines.push(`      ${(micros / 1000 / seconds).toFixed(1)} ms/s  ${chain}`);
  }
  return lines;
}

async function phase(page: Page, name: string, during?: () => Promise<void>): Promise<void> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 500 });
  await session.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink,cc,gpu,toplevel', transferMode: 'ReportEvents' });
  await session.send('Profiler.start');
  const started = performance.now();
  if (during) await during();
  else await page.waitForTimeout(SECONDS * 1000);
  const { profile } = await session.send('Profiler.stop');
  await session.send('Tracing.end');
  await done;
  const seconds = (performance.now() - started) / 1000;
  await session.detach();
  console.log(`\n## ${name} (${seconds.toFixed(1)} s)\n-- trace, self time on the renderer main thread`);
  for (const line of summarise(events, seconds)) console.log(line);
  console.log('-- JS self time');
  for (const line of summariseProfile(profile as never, seconds)) console.log(line);
}

const home = await freshHome('pixelfleet-profile-world-');
const host = await startHost({ home, args: ['--demo', '--agents', '200'] });
const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const { ask, close } = await connect(host);
try {
  await spreadOverStations(ask);
  const page = await openWorldPage(browser, host);
  await page.waitForTimeout(2000);
  await phase(page, 'animating');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.waitForTimeout(1000);
  await phase(page, 'reduced motion');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await phase(page, 'pan and zoom', async () => {
    const until = performance.now() + SECONDS * 1000;
    let round = 0;
    while (performance.now() < until) {
      const direction = round % 2 === 0 ? 1 : -1;
      await page.mouse.move(640, 420);
      await page.mouse.wheel(0, direction > 0 ? -120 : 120);
      await page.keyboard.press(direction > 0 ? 'ArrowLeft' : 'ArrowRight');
      round += 1;
    }
  });
} finally {
  close();
  await browser.close();
  await host.stop();
  await removeHome(home);
}
