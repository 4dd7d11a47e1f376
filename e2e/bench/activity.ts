/**
 * Activity figures in Chromium: the time from a journal append that changes a seat's activity to the page showing
 * its bubble (a question asked → "?", a new prompt → no bubble), as the p95 of alternating appends to one quiet seat.
 */
import { chromium } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { assistantLine, escapeCwd, userPromptLine } from '../../main/dev/demo/lines';
import { freshHome, removeHome, startHost } from '../host';
import { atMost, type BenchTable } from './table';
import { connect } from './world';

/** Appends measured; half ask a question, half answer with a new prompt. */
const ROUNDS = 20;

/** Runs the activity benchmark. */
export async function benchActivity(log: (line: string) => void, table: BenchTable): Promise<void> {
  const home = await freshHome('pixelfleet-bench-activity-');
  const host = await startHost({ home });
  const socket = await connect(host);
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const cwd = '/bench/activity';
    const folder = join(home, 'claude', 'projects', escapeCwd(cwd));
    await mkdir(folder, { recursive: true });
    const sessionId = '0b1e7c2a-5d3f-4c8e-9a10-00000000a001';
    const path = join(folder, `${sessionId}.jsonl`);
    const context = { sessionId, cwd, slug: 'bench' };
    await writeFile(path, userPromptLine(context, { uuid: 'u-0', parentUuid: null, timestamp: new Date().toISOString() }, 'prompt-0', 'Start.'));
    const hired = await socket.ask('agents.hire', { name: 'Asker', role: 'builder', seat: { harness: 'claude', home: join(home, 'claude'), sessionId, cwd, path } });
    if (!hired.ok) throw new Error(`hiring the bench agent failed: ${hired.error?.message}`);
    const personaId = (hired.value as { id: string }).id;

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    const bubble = () => page.evaluate((id) => (window as unknown as { __pixelfleet: { bubbles(): Record<string, string | null> } }).__pixelfleet.bubbles()[id] ?? null, personaId);
    await page.waitForFunction((id) => (window as unknown as { __pixelfleet?: { state(): { fleet: { seats: { personaId: string }[] } | null } } }).__pixelfleet?.state().fleet?.seats.some((seat) => seat.personaId === id), personaId, { timeout: 60_000 });

    const latencies: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const asking = round % 2 === 1;
      const base = { uuid: `l-${round}`, parentUuid: `l-${round - 1}`, timestamp: new Date().toISOString() };
      const line = asking
        ? assistantLine(context, base, { messageId: `msg-${round}`, requestId: `req-${round}`, outputTokens: 10 }, {
            type: 'tool_use',
            id: `toolu_bench${String(round).padStart(20, '0')}`,
            name: 'AskUserQuestion',
            input: { questions: [{ question: 'Which one?', header: 'Pick', multiSelect: false, options: [] }] },
          })
        : userPromptLine(context, base, `prompt-${round}`, 'Go on.');
      const want = asking ? 'question' : null;
      const started = performance.now();
      await appendFile(path, line);
      const seen = await page
        .waitForFunction(
          ([id, expected]) => ((window as unknown as { __pixelfleet: { bubbles(): Record<string, string | null> } }).__pixelfleet.bubbles()[id] ?? null) === expected,
          [personaId, want] as const,
          { timeout: 30_000, polling: 5 },
        )
        .then(() => true, () => false);
      if (!seen) {
        log(`journal append → bubble: not seen — the bubble still shows ${await bubble()} 30 s after append ${round}`);
        table.add({ figure: 'journal append → bubble on screen, p95', goal: atMost(1000), value: null, unit: 'ms' });
        return;
      }
      latencies.push(performance.now() - started);
    }
    const sorted = [...latencies].sort((first, second) => first - second);
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1];
    log(`journal append → bubble (${ROUNDS} appends, question and prompt in turn): median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, worst ${sorted[sorted.length - 1].toFixed(0)} ms`);
    table.add({ figure: 'journal append → bubble on screen, p95', goal: atMost(1000), value: p95, unit: 'ms' });
  } finally {
    socket.close();
    await browser.close();
    await host.stop();
    await removeHome(home);
  }
}
