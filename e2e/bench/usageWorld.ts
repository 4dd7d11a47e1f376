/**
 * The world-bench row of issue 26: the idle world page's CPU while the host's usage background pass reads a large
 * journal (a seat added to the quiet fleet). The pass runs in the host; the page should stay idle (< 5 ms/s).
 */
import type { Page } from '@playwright/test';
import { appendFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJournalForBench } from '../../main/dev/demo/benchJournal';
import { assistantLine, userPromptLine } from '../../main/dev/demo/lines';
import { flushToDisk } from './measure';
import { below, type BenchTable } from './table';

const MIB = 1024 * 1024;
const SESSION = '0b1e7c2a-5d3f-4c8e-9a10-ffffffffffff';

type Ask = (channel: string, payload: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
type Measure = (page: Page, seconds: number) => Promise<{ fps: number; cpu: number }>;

/** Adds a seat with a large journal to the quiet fleet and measures the still page while its usage pass runs. */
export async function benchIdleDuringUsagePass(
  page: Page,
  ask: Ask,
  seat: { claudeHome: string; folder: string; cwd: string },
  measure: Measure,
  log: (line: string) => void,
  table: BenchTable,
): Promise<void> {
  const path = join(seat.folder, `${SESSION}.jsonl`);
  const large = `${path}.large`;
  const bytes = Math.round(Number(process.env.PIXELFLEET_BENCH_USAGE_GIB ?? '1') * 1024 * MIB);
  // Every version of the session ends with a finished turn, like the quiet fleet's: its agent waits and nothing
  // types, so the scene can stop drawing while the pass reads.
  const at = new Date(Date.now() - 120_000).toISOString();
  const context = { sessionId: SESSION, cwd: seat.cwd, slug: 'bench' };
  const finishedTurn =
    userPromptLine(context, { uuid: 'u-end', parentUuid: null, timestamp: at }, 'prompt-end', 'Wrap up.') +
    assistantLine(context, { uuid: 'a-end', parentUuid: 'u-end', timestamp: at }, { messageId: 'msg-end', requestId: 'req-end', outputTokens: 5 }, { type: 'text', text: 'Done.' });
  const ticker = () => page.waitForFunction(() => (window as unknown as { __pixelfleet: { ticker(): { running: boolean } } }).__pixelfleet.ticker().running === false, null, { timeout: 60_000 }).then(() => true, () => false);
  const partial = async () => {
    const report = await ask('usage.read', {});
    const rows = (report.value as { seats: { seat: string; partial: boolean }[] } | undefined)?.seats ?? [];
    return rows.find((row) => row.seat === `claude:${SESSION}`)?.partial ?? null;
  };
  try {
    // The seat is hired on a short session first, so its agent has walked to its station and the scene is still
    // before the pass starts; then the session is replaced by a long one, which restarts the pass from its start.
    await writeFile(path, finishedTurn);
    await writeJournalForBench({ path: large, bytes });
    await appendFile(large, finishedTurn);
    await flushToDisk(large);
    const hired = await ask('agents.hire', { name: 'Long Session', role: 'builder', seat: { harness: 'claude', home: seat.claudeHome, sessionId: SESSION, cwd: seat.cwd, path } });
    if (!hired.ok) throw new Error(hired.error?.message ?? 'hire refused');
    const personaId = (hired.value as { id: string }).id;
    const appeared = await page
      .waitForFunction((id) => document.querySelector(`[data-agent="${id}"]`) !== null, personaId, { timeout: 60_000 })
      .then(() => true, () => false);
    let settled = appeared && (await ticker());
    let started = false;
    if (settled) {
      await rename(large, path);
      for (let round = 0; round < 100 && !started; round += 1) {
        started = (await partial()) === true;
        if (!started) await page.waitForTimeout(50);
      }
      settled = started && (await ticker());
    }
    if (!settled) {
      const state = await page.evaluate((id) => document.querySelector(`[data-agent="${id}"]`)?.getAttribute('data-activity') ?? null, personaId);
      const why = !appeared ? 'the new agent did not show within 60 s' : !started ? 'the pass over the long session was not seen to start' : `the scene kept drawing for 60 s (the agent's state: ${state})`;
      log(`idle world page while the usage pass runs: not measured — ${why} (pass running: ${await partial()})`);
      table.add({ figure: 'idle world page while the usage pass runs', goal: below(5), value: null, unit: 'ms/s' });
      return;
    }
    const before = await partial();
    const idle = await measure(page, 3);
    const after = await partial();
    log(`idle world page while the usage pass reads a ${(bytes / MIB).toFixed(0)} MiB journal: ${idle.fps.toFixed(1)} frames/s, page CPU ${(idle.cpu * 1000).toFixed(1)} ms/s (pass running before: ${before}, after: ${after})`);
    table.add({ figure: 'idle world page while the usage pass runs', goal: below(5), value: idle.cpu * 1000, unit: 'ms/s', also: { text: 'pass running throughout', holds: before === true && after === true } });
    // The rows after this one measure a host at rest: the pass is let finish first.
    for (let round = 0; round < 240 && (await partial()) === true; round += 1) await page.waitForTimeout(500);
  } finally {
    await rm(path, { force: true });
    await rm(large, { force: true });
  }
}
