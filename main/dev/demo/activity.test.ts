import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { startDemo } from './simulator';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('the demo fleet through the real activity projection', () => {
  it('shows working seats and seats waiting on a question, a plan, an approval, an error, an interrupt and a finished turn', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-activity-'));
    homes.push(home);
    // A clock the test moves, a second per step: the time-bound rules (approval after 10 s) then hold between steps.
    let nowMs = Date.UTC(2026, 3, 1, 9);
    const fleet = await startDemo({ home, seed: 7, agents: 6, speed: 0, now: () => nowMs });
    const reader = createClaudeReader({ home: fleet.claudeHome });
    const seats: SeatAddress[] = fleet.sessions.map((session) => ({ harness: 'claude', home: fleet.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path }));
    const seen = new Map<string, Set<number>>();
    let firstQueueStep: number | null = null;
    try {
      for (let step = 0; step < 150; step += 1) {
        let waiting = 0;
        for (const [index, seat] of seats.entries()) {
          const projection = await reader.project(seat);
          if (!projection.ok) throw new Error(`seat ${index} unknown: ${projection.reason}`);
          const activity = evaluateActivity(projection.activity, nowMs);
          const key = activity.state === 'needs-you' ? `needs-you/${activity.why}/${activity.certain ? 'certain' : 'inferred'}` : activity.state;
          if (!seen.has(key)) seen.set(key, new Set());
          seen.get(key)!.add(index);
          if (activity.state === 'needs-you') waiting += 1;
        }
        if (waiting > 0 && firstQueueStep === null) firstQueueStep = step;
        nowMs += 1000;
        await fleet.step();
      }
    } finally {
      reader.dispose();
      await fleet.stop();
    }
    const kinds = [...seen.keys()].sort();
    for (const expected of ['working', 'needs-you/question/certain', 'needs-you/plan/certain', 'needs-you/approval/inferred', 'needs-you/turn-done/certain', 'needs-you/error/certain', 'needs-you/interrupted/certain']) {
      expect(kinds, `states seen: ${kinds.join(', ')}`).toContain(expected);
    }
    // The lead (seat 0) never stops for the owner (a pause after prose may still read as an inferred turn end).
    expect([...seen.entries()].filter(([key]) => key.startsWith('needs-you') && key.endsWith('/certain')).some(([, indices]) => indices.has(0))).toBe(false);
    // The queue fills from the first steps on, so a first run shows it working.
    expect(firstQueueStep).not.toBeNull();
    expect(firstQueueStep!).toBeLessThanOrEqual(15);
  });
});
