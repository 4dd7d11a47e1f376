import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexReader } from '../../sources/readers/codex/reader';
import { createOpenCodeReader } from '../../sources/readers/opencode/reader';
import { harnessShares, startHarnessSeats, type HarnessSeats } from './harnessSeats';
import { createTurnCycle, nextTurnStep } from './turnScript';
import { createRandom } from './random';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(codex: number, opencode: number): Promise<{ home: string; seats: HarnessSeats }> {
  const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-harness-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const seats = await startHarnessSeats({ home, codex, opencode, names: ['Ada', 'Bram', 'Cyra', 'Dev'], roles: ['builder', null, 'tester', 'Sound Designer'], seed: 3 });
  cleanups.push(() => seats.stop());
  return { home, seats };
}

describe('demo harness shares', () => {
  it('gives about a sixth of the agents to Codex and to OpenCode, at least one each from three agents', () => {
    expect(harnessShares(2)).toEqual({ claude: 2, codex: 0, opencode: 0 });
    expect(harnessShares(3)).toEqual({ claude: 1, codex: 1, opencode: 1 });
    expect(harnessShares(6)).toEqual({ claude: 4, codex: 1, opencode: 1 });
    expect(harnessShares(60)).toEqual({ claude: 40, codex: 10, opencode: 10 });
  });
});

describe('the demo turn cycle', () => {
  it('opens a turn with a prompt, runs tools, ends it, and rests before the next prompt', () => {
    const cycle = createTurnCycle();
    const random = createRandom(5);
    const kinds = Array.from({ length: 40 }, () => nextTurnStep(cycle, random).kind);
    expect(kinds[0]).toBe('prompt');
    expect(kinds[1]).toBe('tool');
    const end = kinds.indexOf('end');
    expect(end).toBeGreaterThan(2);
    expect(kinds[end + 1]).toBe('rest');
    expect(kinds.slice(end + 1).includes('prompt')).toBe(true);
  });
});

describe('demo Codex and OpenCode seats through the real readers', () => {
  it('writes rollouts the Codex reader discovers and projects', async () => {
    const { seats } = await started(2, 0);
    const reader = createCodexReader({ home: seats.codexHome });
    cleanups.push(() => reader.dispose());
    const found = await reader.discover();
    const codexSeats = seats.seats.filter((entry) => entry.seat.harness === 'codex');
    expect(found.map((candidate) => candidate.seat.sessionId).sort()).toEqual(codexSeats.map((entry) => entry.seat.sessionId).sort());
    expect(found.every((candidate) => candidate.cwdHint?.startsWith('/home/demo/src/'))).toBe(true);
    for (const entry of codexSeats) {
      const projection = await reader.project(entry.seat);
      expect(projection.ok, projection.ok ? '' : projection.reason).toBe(true);
    }
    expect(codexSeats.map((entry) => [entry.suggestedName, entry.suggestedRole])).toEqual([['Ada', 'builder'], ['Bram', null]]);
  });

  it('writes a real SQLite store the OpenCode reader discovers and projects', async () => {
    const { seats } = await started(0, 2);
    expect(seats.openCodeDb).not.toBeNull();
    const reader = createOpenCodeReader({ dataDir: path.dirname(seats.openCodeDb!), env: { OPENCODE_DB: seats.openCodeDb! } });
    cleanups.push(() => reader.dispose());
    const found = await reader.discover();
    expect(found.map((candidate) => candidate.seat.sessionId).sort()).toEqual(seats.seats.map((entry) => entry.seat.sessionId).sort());
    for (const entry of seats.seats) {
      const projection = await reader.project(entry.seat);
      expect(projection.ok, projection.ok ? '' : projection.reason).toBe(true);
      if (projection.ok) expect(projection.activity).not.toEqual({});
    }
  });
});
