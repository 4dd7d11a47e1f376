// The demo's usage records through the real readers (issue 26): every harness shows usage, one Claude seat is past
// 80 % of its window, one runs a model no table knows (fill unknown, no cost), OpenCode's cost is as recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageSchema } from '../../../shared/usage';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { createCodexReader } from '../../sources/readers/codex/reader';
import { createOpenCodeReader } from '../../sources/readers/opencode/reader';
import { startHarnessSeats } from './harnessSeats';
import { startDemo } from './simulator';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-usage-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

describe('demo usage records', () => {
  it('Claude seats: message.usage and model per message; one seat past 80 %, one unknown model', async () => {
    let nowMs = Date.now();
    const fleet = await startDemo({ home: tempHome(), seed: 7, speed: 0, agents: 4, now: () => nowMs });
    cleanups.push(() => fleet.stop());
    for (let step = 0; step < 6; step += 1) {
      nowMs += 1000;
      await fleet.step();
    }
    const reader = createClaudeReader({ home: fleet.claudeHome });
    cleanups.push(() => reader.dispose());
    const usages = [];
    for (const session of fleet.sessions) {
      const projection = await reader.project({ harness: 'claude', home: fleet.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path });
      if (!projection.ok) throw new Error(projection.reason);
      usages.push(UsageSchema.parse(projection.usage));
    }
    expect(usages[0].context?.fill).toBeGreaterThan(0.8);
    expect(usages[0].cost?.estimated).toBe(true);
    expect(usages[1]).toMatchObject({ model: 'claude-lab-preview', context: { window: null, fill: null } });
    expect(usages[1].cost).toBeUndefined();
    expect(usages.every((usage) => usage.totals.output > 0 && usage.partial === false)).toBe(true);
  });

  it('Codex seats write token_count events with info; OpenCode seats record tokens, cost and model', async () => {
    let nowMs = Date.parse('2026-12-01T10:00:00Z');
    const seats = await startHarnessSeats({ home: tempHome(), codex: 2, opencode: 2, names: ['Ada', 'Bram', 'Cyra', 'Dev'], roles: [null, null, null, null], seed: 3, now: () => nowMs, timers: false });
    cleanups.push(() => seats.stop());
    const codex = createCodexReader({ home: seats.codexHome });
    const openCode = createOpenCodeReader({ db: seats.openCodeDb! });
    cleanups.push(() => codex.dispose(), () => openCode.dispose());
    const usageOf = async (entry: (typeof seats.seats)[number]) => {
      const reader = entry.seat.harness === 'codex' ? codex : openCode;
      const projection = await reader.project(entry.seat);
      if (!projection.ok) throw new Error(projection.reason);
      return UsageSchema.parse(projection.usage);
    };
    const spent = (usage: { totals: { input: number; cacheRead: number } }) => usage.totals.input + usage.totals.cacheRead > 0;
    // A seat records usage after a model response (a command or a finished turn); step until every seat has had one.
    for (let step = 0; step < 80; step += 1) {
      const usages = await Promise.all(seats.seats.map(usageOf));
      if (usages.every(spent)) break;
      nowMs += 2500;
      await seats.step();
    }
    for (const entry of seats.seats) {
      const usage = await usageOf(entry);
      expect(usage.totals.input + usage.totals.cacheRead).toBeGreaterThan(0);
      expect(usage.context?.window).toBe(entry.seat.harness === 'codex' ? 272_000 : 200_000);
      expect(usage.cost?.estimated).toBe(entry.seat.harness === 'codex');
    }
  });
});
