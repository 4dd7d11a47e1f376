// A Claude line over 8 MiB in the usage pass (issue 36): the pass yields to the event loop inside the line (never
// holding the host), and a usage-bearing line it passes over is counted as skipped, never silently dropped.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../kit/bounds';
import { UsageLedger, type LedgerView } from './ledger';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pixelfleet-long-line-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = (id: string, text: string) => `${JSON.stringify({ type: 'assistant', timestamp: '2026-05-01T09:00:00.000Z', requestId: `r_${id}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], usage: { input_tokens: 3, output_tokens: 7 } } })}\n`;

describe('an over-long journal line in the usage pass', () => {
  it('is counted as skipped when it holds usage, and the pass yields while it reads it', async () => {
    const journal = path.join(dir, 'session.jsonl');
    await writeFile(journal, line('m1', 'a') + line('m2', 'x'.repeat(MAX_LINE_BYTES + 1024 * 1024)) + line('m3', 'b'));
    const ledger = new UsageLedger({ chunkBytes: 256 * 1024 });
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    ledger.lookup(journal);
    await ledger.idle();
    ticking = false;
    const view: LedgerView | 'missing' | null = ledger.lookup(journal);
    if (view === null || view === 'missing') throw new Error('no view');
    expect(view.done).toBe(true);
    expect(view.fold.main.sum.input).toBe(6);
    expect(view.fold.main.skipped).toBe(1);
    // The 9 MiB line is 36 chunks: the event loop had a turn between them (a stalled pass gives it none).
    expect(turns).toBeGreaterThan(30);
    await ledger.dispose();
  });
});
