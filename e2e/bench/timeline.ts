/**
 * The timeline's cost to the page (issue 27): page CPU of a still world with the bar closed, open, and showing the
 * past (the tint, the banner and the past fleet drawn) — the bar runs nothing while it is still — how long a press
 * on the bar takes until the world shows that moment (the host's answer and the page's drawing, p95), and page CPU
 * while the past plays at 600×.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { BUILT_IN_ROLES } from '../../shared/roles';
import { freshHome, removeHome, startHost } from '../host';
import { atMost, below, type BenchTable } from './table';
import { connect } from './world';

/** Agents hired into the still world (no sessions: nothing types, nothing walks). */
const AGENTS = 50;
/** Presses on the bar measured for the seek figure. */
const SEEKS = 12;

interface Hook {
  ticker(): { running: boolean; frames: number };
  history(): { mode: string; at: string | null; handle: string | null; span: { from: string | null; to: string } | null };
}

/** Page CPU in ms/s over `seconds` in which the test does nothing. */
async function idleCpu(page: Page, seconds: number): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const task = async () => (await session.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
  const [cpu, started] = [await task(), performance.now()];
  await page.waitForTimeout(seconds * 1000);
  const used = (await task()) - cpu;
  const elapsed = (performance.now() - started) / 1000;
  await session.detach();
  return (used / elapsed) * 1000;
}

/** Waits until the scene stopped drawing. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __pixelfleet: Hook }).__pixelfleet.ticker().running === false, null, { timeout: 30_000 });
  await page.waitForTimeout(500);
}

/** Runs the timeline benchmark and prints its figures. */
export async function benchTimeline(log: (line: string) => void, table: BenchTable): Promise<void> {
  const home = await freshHome('pixelfleet-bench-timeline-');
  const host = await startHost({ home });
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const { ask, close } = await connect(host);
  try {
    const roles = BUILT_IN_ROLES;
    const hired: string[] = [];
    for (let index = 0; index < AGENTS; index += 1) hired.push(((await ask('agents.hire', { name: `Still ${index}`, role: roles[index % 6] })).value as { id: string }).id);
    // Role changes spread over a few seconds, so the span holds moments with different worlds.
    for (let round = 0; round < 4; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await Promise.all(hired.slice(0, 10).map((id, index) => ask('personas.setRole', { personaId: id, role: roles[(index + round + 1) % 6] })));
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.waitForFunction((count) => document.querySelectorAll('[data-agent]').length >= count, AGENTS, { timeout: 60_000 });
    await settle(page);
    const closed = await idleCpu(page, 5);
    log(`still world, ${AGENTS} agents, timeline closed: page CPU ${closed.toFixed(1)} ms/s`);
    table.add({ figure: 'still world page, timeline closed', goal: below(5), value: closed, unit: 'ms/s' });

    await page.locator('#world > canvas:not(.backdrop)').focus();
    await page.keyboard.press('h');
    await page.waitForFunction(() => (window as unknown as { __pixelfleet: Hook }).__pixelfleet.history().span !== null, null, { timeout: 30_000 });
    await settle(page);
    const open = await idleCpu(page, 5);
    log(`timeline open, live: page CPU ${open.toFixed(1)} ms/s`);
    table.add({ figure: 'still world page, timeline open (live)', goal: below(5), value: open, unit: 'ms/s' });

    const seeks: number[] = [];
    // The functions below are sent to the page as they were compiled, which names them through this helper.
    await page.evaluate('window.__name = (target) => target');
    const answers: number[] = [];
    for (let index = 0; index < SEEKS; index += 1) {
      // Measured each time: once the past is shown, the PAST banner leads the bar and the track starts further right.
      const track = (await page.locator('[data-timeline-track]').boundingBox())!;
      const x = track.x + 4 + (((index * 7919) % 97) / 100) * (track.width * 0.9);
      // Timed in the page: from the press on the bar to the moment answered, then to the frame after it was drawn.
      const timing = page.evaluate(
        () =>
          new Promise<{ answered: number; drawn: number }>((resolve) => {
            const hookOf = () => (window as unknown as { __pixelfleet: Hook }).__pixelfleet;
            const before = hookOf().history().at;
            const track = document.querySelector('[data-timeline-track]')!;
            track.addEventListener(
              'pointerdown',
              (event) => {
                const pressed = event.timeStamp;
                const wait = () => {
                  const at = hookOf().history().at;
                  if (at === null || at === before) return void requestAnimationFrame(wait);
                  const answered = performance.now() - pressed;
                  // The frame that shows it, then the next one begins: the moment is on screen.
                  requestAnimationFrame(() => requestAnimationFrame(() => resolve({ answered, drawn: performance.now() - pressed })));
                };
                wait();
              },
              { once: true },
            );
          }),
      );
      await page.waitForTimeout(50);
      await page.mouse.click(x, track.y + track.height / 2);
      const { answered, drawn } = await timing;
      answers.push(answered);
      seeks.push(drawn);
      await page.waitForTimeout(200);
    }
    answers.sort((a, b) => a - b);
    log(`  answered (the host's answer in the store): median ${answers[Math.floor(answers.length / 2)].toFixed(0)} ms, p95 ${answers[Math.ceil(answers.length * 0.95) - 1].toFixed(0)} ms`);
    seeks.sort((a, b) => a - b);
    const p95 = seeks[Math.ceil(seeks.length * 0.95) - 1];
    log(`press on the bar → that moment shown (${AGENTS} agents, a few seconds of history): median ${seeks[Math.floor(seeks.length / 2)].toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`);
    table.add({ figure: `press on the timeline → the world at that moment (${AGENTS} agents), p95`, goal: atMost(100), value: p95, unit: 'ms' });
    // Issue 43's row: the same presses, against its tighter goal.
    table.add({ figure: 'press on the timeline → the world then, p95', goal: atMost(50), value: p95, unit: 'ms' });

    await settle(page);
    const past = await idleCpu(page, 5);
    log(`showing the past (tint and banner), still: page CPU ${past.toFixed(1)} ms/s`);
    table.add({ figure: 'still world page showing the past', goal: below(5), value: past, unit: 'ms/s' });

    // Playing: a moment asked and drawn every step; the same budget as the world's animating agents.
    const track = (await page.locator('[data-timeline-track]').boundingBox())!;
    await page.mouse.click(track.x + 3, track.y + track.height / 2);
    await page.locator('[data-timeline-play="600"]').click();
    const playing = await idleCpu(page, 5);
    log(`playing the past at 600×: page CPU ${playing.toFixed(1)} ms/s`);
    table.add({ figure: 'page playing the past at 600×', goal: atMost(150), value: playing, unit: 'ms/s' });
    await page.close();
  } finally {
    close();
    await browser.close();
    await host.stop();
    await removeHome(home);
  }
}
