import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { startDemo, type DemoFleet } from './simulator';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** Each seat's activity key now: `needs-you/<why>` or the state. */
async function activities(fleet: DemoFleet, nowMs: number): Promise<string[]> {
  const reader = createClaudeReader({ home: fleet.claudeHome });
  try {
    const seats: SeatAddress[] = fleet.sessions.map((session) => ({ harness: 'claude', home: fleet.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path }));
    const keys: string[] = [];
    for (const seat of seats) {
      const projection = await reader.project(seat);
      if (!projection.ok) throw new Error(`seat unknown: ${projection.reason}`);
      const activity = evaluateActivity(projection.activity, nowMs);
      keys.push(activity.state === 'needs-you' ? `needs-you/${activity.why}` : activity.state);
    }
    return keys;
  } finally {
    reader.dispose();
  }
}

describe('a demo restarted on the same home', () => {
  it('closes the questions, plans and tool calls its previous run left waiting', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-resume-'));
    homes.push(home);
    let nowMs = Date.UTC(2026, 3, 1, 9);
    const first = await startDemo({ home, seed: 7, agents: 6, speed: 0, now: () => nowMs });
    let waiting: number[] = [];
    try {
      for (let step = 0; step < 150 && waiting.length === 0; step += 1) {
        nowMs += 1000;
        await first.step();
        const keys = await activities(first, nowMs);
        waiting = keys.flatMap((key, index) => (key === 'needs-you/question' || key === 'needs-you/plan' ? [index] : []));
      }
    } finally {
      await first.stop();
    }
    expect(waiting.length, 'the first run left a seat waiting on a question or a plan').toBeGreaterThan(0);
    nowMs += 60_000;
    const second = await startDemo({ home, seed: 7, agents: 6, speed: 0, now: () => nowMs });
    try {
      const keys = await activities(second, nowMs);
      for (const index of waiting) expect(keys[index], `seat ${index} after the restart`).not.toMatch(/^needs-you\/(question|plan)$/);
    } finally {
      await second.stop();
    }
  });
});
