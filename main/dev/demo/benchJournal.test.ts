import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeJournalForBench } from './benchJournal';
import { agentCalls, readJournal } from '../testing/demoJournalShape';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function tempFile(name: string): string {
  const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-bench-'));
  homes.push(home);
  return path.join(home, 'nested', name);
}

describe('writeJournalForBench', () => {
  it('writes about the asked size in whole, well-formed lines with fresh ids in every copy', async () => {
    const file = tempFile('big.jsonl');
    const bytes = 3 * 1024 * 1024 + 12345;
    const written = await writeJournalForBench({ path: file, bytes, seed: 3 });
    const size = statSync(file).size;
    expect(size).toBeLessThanOrEqual(bytes);
    expect(size).toBeGreaterThan(bytes - 64 * 1024);

    const lines = readJournal(file);
    expect(written.lines).toBe(lines.length);
    const calls = agentCalls(lines);
    expect(written.calls).toBe(calls.length);
    expect(calls.length).toBeGreaterThan(0);
    // Copies must not repeat ids, or a reader would fold them into one another.
    expect(new Set(lines.map((line) => line.uuid)).size).toBe(lines.length);
    expect(new Set(calls.map((call) => call.toolUseId)).size).toBe(calls.length);
    expect(readFileSync(file, 'utf8')).not.toContain('@@@@');
  });

  it('ends every call of a whole copy before the next copy starts', async () => {
    const file = tempFile('settled.jsonl');
    await writeJournalForBench({ path: file, bytes: 2.5 * 1024 * 1024, seed: 4 });
    const calls = agentCalls(readJournal(file));
    const open = calls.filter((call) => (call.input.run_in_background === true ? !call.notification : !call.result));
    const lastCopyStart = calls.findIndex((call) => call.toolUseId.slice(8, 12) === '0002');
    expect(lastCopyStart).toBeGreaterThan(0);
    for (const call of open) expect(calls.indexOf(call)).toBeGreaterThanOrEqual(lastCopyStart);
  });

  it('writes an empty file for zero bytes and refuses a negative size', async () => {
    const file = tempFile('empty.jsonl');
    expect(await writeJournalForBench({ path: file, bytes: 0 })).toEqual({ calls: 0, lines: 0 });
    expect(statSync(file).size).toBe(0);
    await expect(writeJournalForBench({ path: file, bytes: -1 })).rejects.toThrow(/0 or more/);
  });
});
