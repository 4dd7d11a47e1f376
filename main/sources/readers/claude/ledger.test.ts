// The background pass and its checkpoint over real files in a real app home: a restart mid-pass resumes exactly
// (nothing counted twice), a truncated or replaced file restarts its entry, a corrupt checkpoint is set aside.
import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_FILE } from './checkpoint';
import { USAGE_CHECKPOINT_VERSION } from '../../../kit/usage/bounds';
import { UsageLedger, type LedgerView } from './ledger';

let dir: string;
let journal: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pixelfleet-usage-ledger-'));
  journal = path.join(dir, 'session.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Message `index` as Claude writes it: `blocks` lines repeating one usage; a long text so chunks split lines. */
function message(index: number, blocks = 2): string {
  const line = JSON.stringify({
    type: 'assistant',
    timestamp: '2026-05-01T09:00:00.000Z',
    requestId: `req_${index}`,
    message: { id: `msg_${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'z'.repeat(300 + (index % 7) * 50) }], usage: { input_tokens: 3, cache_read_input_tokens: 100, output_tokens: 7 } },
  });
  return `${Array.from({ length: blocks }, () => line).join('\n')}\n`;
}

function viewOf(value: LedgerView | 'missing' | null): LedgerView {
  if (value === null || value === 'missing') throw new Error(`no view (${String(value)})`);
  return value;
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('the usage ledger', () => {
  it('resumes after a restart mid-pass with exact totals, not doubled', async () => {
    await writeFile(journal, Array.from({ length: 2_000 }, (_, index) => message(index)).join(''));
    const appHome = path.join(dir, 'home');
    const first = new UsageLedger({ appHome, chunkBytes: 4_096 });
    first.lookup(journal);
    // Stop the host while the pass is inside the file (after some chunks, before the end).
    await waitFor(() => first.bytesRead > 100_000);
    await first.dispose();
    const saved = JSON.parse(await readFile(path.join(appHome, CHECKPOINT_FILE), 'utf8')) as { files: { offset: number }[] };
    const size = (await readFile(journal)).length;
    expect(saved.files[0].offset).toBeGreaterThan(0);
    expect(saved.files[0].offset).toBeLessThan(size);

    const second = new UsageLedger({ appHome, chunkBytes: 4_096 });
    second.lookup(journal);
    await second.idle();
    const view = viewOf(second.lookup(journal));
    expect(view.done).toBe(true);
    // 2,000 messages, each counted once although written on two lines.
    expect(view.fold.main.sum).toMatchObject({ input: 6_000, output: 14_000, cacheRead: 200_000, cacheWrite: 0 });
    // Rule U8: every message's copy is remembered across the restart (the checkpoint keeps them), each at its figures.
    expect(view.fold.copies.size).toBe(2_000);
    expect([...view.fold.copies].every(([, copy]) => copy.figures.input === 3 && copy.figures.output === 7 && copy.figures.cacheRead === 100)).toBe(true);
    // The second run read only what the first had not.
    expect(second.bytesRead).toBeLessThan(size);
    expect(first.bytesRead + second.bytesRead).toBeLessThan(size + 4_096 * 2);
    await second.dispose();
  });

  it('reads a file again from its start when its message copies in the checkpoint do not hold together', async () => {
    await writeFile(journal, message(1) + message(2));
    const appHome = path.join(dir, 'home');
    const first = new UsageLedger({ appHome });
    first.lookup(journal);
    await first.idle();
    await first.dispose();
    const file = path.join(appHome, CHECKPOINT_FILE);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { files: { fold: { copies: { data: string } } }[] };
    // Three bytes where whole 8-byte figures belong.
    saved.files[0].fold.copies.data = 'AAAA';
    await writeFile(file, JSON.stringify(saved));
    const second = new UsageLedger({ appHome });
    second.lookup(journal);
    await second.idle();
    const view = viewOf(second.lookup(journal));
    expect(second.bytesRead).toBe((await readFile(journal)).length);
    expect(view.fold.main.sum.input).toBe(6);
    expect(view.fold.copies.size).toBe(2);
    await second.dispose();
  });

  it('reads only appended bytes once done, and restarts a truncated or replaced file from zero', async () => {
    await writeFile(journal, message(1) + message(2));
    const ledger = new UsageLedger({ chunkBytes: 1_024 });
    ledger.lookup(journal);
    await ledger.idle();
    expect(viewOf(ledger.lookup(journal)).fold.main.sum.input).toBe(6);
    const before = ledger.bytesRead;
    await appendFile(journal, message(3));
    ledger.lookup(journal, (await readFile(journal)).length);
    await ledger.idle();
    expect(viewOf(ledger.lookup(journal)).fold.main.sum.input).toBe(9);
    expect(ledger.bytesRead - before).toBe(Buffer.byteLength(message(3)));

    await truncate(journal, Buffer.byteLength(message(1)));
    ledger.lookup(journal, Buffer.byteLength(message(1)));
    await ledger.idle();
    expect(viewOf(ledger.lookup(journal)).fold.main.sum.input).toBe(3);

    const other = path.join(dir, 'other.jsonl');
    await writeFile(other, message(7) + message(8) + message(9) + message(10));
    await rename(other, journal);
    ledger.lookup(journal, Buffer.byteLength(message(7) + message(8) + message(9) + message(10)));
    await ledger.idle();
    expect(viewOf(ledger.lookup(journal)).fold.main.sum.input).toBe(12);
    await ledger.dispose();
  });

  it('moves a corrupt checkpoint or one of another version aside with one log line, and rebuilds', async () => {
    const appHome = path.join(dir, 'home');
    await writeFile(journal, message(1));
    for (const bad of ['{"version": 1, "files": [', JSON.stringify({ version: 99, files: [] })]) {
      await rm(appHome, { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(appHome, { recursive: true }));
      await writeFile(path.join(appHome, CHECKPOINT_FILE), bad);
      const logs: string[] = [];
      const ledger = new UsageLedger({ appHome, log: (line) => logs.push(line) });
      ledger.lookup(journal);
      await ledger.idle();
      expect(logs).toHaveLength(1);
      expect(logs[0]).toContain('moved aside');
      expect((await readdir(appHome)).some((name) => name.startsWith(`${CHECKPOINT_FILE}.bad-`))).toBe(true);
      expect(viewOf(ledger.lookup(journal)).fold.main.sum.input).toBe(3);
      await ledger.dispose();
      const rebuilt = JSON.parse(await readFile(path.join(appHome, CHECKPOINT_FILE), 'utf8')) as { version: number };
      expect(rebuilt.version).toBe(USAGE_CHECKPOINT_VERSION);
    }
  });
});
