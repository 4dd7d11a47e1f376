import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { agentCalls, readJournal } from '../testing/demoJournalShape';
import { startDemo, type DemoFleet } from './simulator';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function seatsOf(fleet: DemoFleet): SeatAddress[] {
  return fleet.sessions.map((session) => ({ harness: 'claude', home: fleet.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path }));
}

/** Calls the journal itself says are still running (no foreground result, no notification). */
function openCalls(file: string): number {
  return agentCalls(readJournal(file)).filter((call) => (call.input.run_in_background === true ? !call.notification : !call.result)).length;
}

describe('the demo through the real Claude reader', () => {
  it('projects running counts that follow the appends, and replays a demo subagent', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-reader-'));
    homes.push(home);
    let nowMs = Date.now();
    const fleet = await startDemo({ home, seed: 11, speed: 0, now: () => nowMs });
    const reader = createClaudeReader({ home: fleet.claudeHome });
    const seats = seatsOf(fleet);
    try {
      const discovered = await reader.discover();
      expect(discovered.map((candidate) => candidate.seat.sessionId).sort()).toEqual(fleet.sessions.map((session) => session.sessionId).sort());

      const history: number[][] = [];
      let replayable: { seat: SeatAddress; nativeId: string } | null = null;
      for (let step = 0; step < 25; step += 1) {
        const counts: number[] = [];
        for (const [index, seat] of seats.entries()) {
          const projection = await reader.project(seat);
          if (!projection.ok) throw new Error(`seat ${index} unknown: ${projection.reason}`);
          // The reader's running count must agree with what the journal says is open.
          expect(projection.subagents.running, `seat ${index} at step ${step}`).toBe(openCalls(fleet.sessions[index].path));
          counts.push(projection.subagents.running);
          const entry = projection.subagents.recent.find((candidate) => candidate.replayable && candidate.nativeId);
          if (entry?.nativeId && !replayable) replayable = { seat, nativeId: entry.nativeId };
        }
        history.push(counts);
        nowMs += 1000;
        await fleet.step();
      }
      const changed = history.some((counts, step) => step > 0 && counts.some((count, index) => count !== history[step - 1][index]));
      expect(changed).toBe(true);
      expect(history.flat().some((count) => count > 0)).toBe(true);

      expect(replayable).not.toBeNull();
      const page = await reader.replay(replayable!.seat, replayable!.nativeId);
      expect(page).toMatchObject({ status: 'ok' });
      if (page.status === 'ok') expect(page.entries.length).toBeGreaterThan(0);
    } finally {
      reader.dispose();
      await fleet.stop();
    }
  });
});
