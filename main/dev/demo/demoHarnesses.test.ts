import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness, SeatAddress } from '../../../shared/schemas';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { createCodexReader } from '../../sources/readers/codex/reader';
import { createOpenCodeReader } from '../../sources/readers/opencode/reader';
import type { SeatReader } from '../../sources/readers/port';
import { startHarnessSeats } from './harnessSeats';
import { startDemo } from './simulator';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** What the real readers showed of one harness over the run. */
interface Seen {
  running: boolean;
  ended: Set<string>;
  states: Set<string>;
  replayable: { seat: SeatAddress; nativeId: string } | null;
  /** Step at which a running subagent was first seen. */
  firstRunningStep: number | null;
  /** Subagents seen with tokens recorded in their own records (issue 38). */
  withTokens: number;
  /** Every `background` value seen: true, false, or null when the harness records nothing that tells. */
  kinds: Set<boolean | null>;
}

/** A demo of every harness on a controlled clock: 3 Claude sessions, 2 Codex seats, 2 OpenCode seats. */
async function startAll(home: string, clock: { ms: number }) {
  const now = () => clock.ms;
  const claude = await startDemo({ home, agents: 3, seed: 7, speed: 0, now });
  const others = await startHarnessSeats({ home, codex: 2, opencode: 2, names: ['Ada', 'Bram', 'Cyra', 'Dev'], roles: ['builder', null, 'tester', 'planner'], seed: 7, now, timers: false });
  const seats: SeatAddress[] = [
    ...claude.sessions.map((session) => ({ harness: 'claude' as const, home: claude.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path })),
    ...others.seats.map((entry) => entry.seat),
  ];
  const readers: Record<Harness, SeatReader> = {
    claude: createClaudeReader({ home: claude.claudeHome }),
    codex: createCodexReader({ home: others.codexHome, now }),
    opencode: createOpenCodeReader({ dataDir: path.dirname(others.openCodeDb!), env: { OPENCODE_DB: others.openCodeDb! }, now }),
  };
  return {
    seats,
    readers,
    step: () => Promise.all([claude.step(), others.step()]),
    async stop() {
      for (const reader of Object.values(readers)) reader.dispose();
      await others.stop();
      await claude.stop();
    },
  };
}

describe('the demo shows native subagents, jobs and activity for every harness', () => {
  it('gives each harness running and ended subagents, a replayable child and several activity states, read by the real readers', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-harnesses-'));
    homes.push(home);
    const clock = { ms: Date.now() };
    const demo = await startAll(home, clock);
    const seen = new Map<Harness, Seen>(['claude', 'codex', 'opencode'].map((harness) => [harness as Harness, { running: false, ended: new Set(), states: new Set(), replayable: null, firstRunningStep: null, withTokens: 0, kinds: new Set() }]));
    try {
      // 80 steps of 2.5 s: a little over three minutes of demo time.
      for (let step = 0; step < 80; step += 1) {
        for (const seat of demo.seats) {
          const projection = await demo.readers[seat.harness].project(seat);
          if (!projection.ok) throw new Error(`${seat.harness} seat ${seat.sessionId} unknown: ${projection.reason}`);
          const record = seen.get(seat.harness)!;
          const activity = evaluateActivity(projection.activity, clock.ms);
          record.states.add(activity.state === 'needs-you' ? `needs-you:${activity.why}` : activity.state);
          if (projection.subagents.running > 0) {
            record.running = true;
            record.firstRunningStep ??= step;
          }
          for (const entry of projection.subagents.recent) {
            if (entry.state === 'ended') record.ended.add(entry.outcome ?? 'unknown');
            if (entry.usage && entry.usage.totals.input + entry.usage.totals.output > 0) record.withTokens += 1;
            record.kinds.add(entry.background);
            if (!record.replayable && entry.replayable && entry.nativeId && entry.state === 'ended') record.replayable = { seat, nativeId: entry.nativeId };
          }
        }
        clock.ms += 2500;
        await demo.step();
      }
      for (const [harness, record] of seen) {
        expect(record.running, `${harness} had a running subagent`).toBe(true);
        // Within the first minute of demo time (24 steps of 2.5 s).
        expect(record.firstRunningStep, `${harness} first running step`).toBeLessThan(24);
        expect(record.ended.size, `${harness} ended subagents`).toBeGreaterThan(0);
        expect(record.states.size, `${harness} activity states: ${[...record.states].join(', ')}`).toBeGreaterThanOrEqual(2);
        expect(record.replayable, `${harness} replayable child`).not.toBeNull();
        const page = await demo.readers[harness].replay(record.replayable!.seat, record.replayable!.nativeId);
        expect(page.status, `${harness} replay`).toBe('ok');
        if (page.status === 'ok') expect(page.entries.length).toBeGreaterThan(0);
      }
      // Every state each harness's rules can produce: Codex records questions and waits quiet on approvals; OpenCode
      // records neither (its rule 4), so its seats show the others.
      expect([...seen.get('codex')!.states].sort()).toEqual(['needs-you:approval', 'needs-you:error', 'needs-you:interrupted', 'needs-you:question', 'needs-you:turn-done', 'working']);
      expect([...seen.get('opencode')!.states].sort()).toEqual(['needs-you:error', 'needs-you:interrupted', 'needs-you:turn-done', 'working']);
      expect(seen.get('codex')!.ended.size).toBeGreaterThanOrEqual(2);
      // Issue 38: child rollouts and child sessions record their own tokens, as the real harnesses do, so the jobs
      // board shows them; Codex children are foreground when the parent waits on them and otherwise not known, never
      // assumed background; OpenCode records both kinds.
      for (const harness of ['claude', 'codex', 'opencode'] as const) expect(seen.get(harness)!.withTokens, `${harness} subagents with tokens`).toBeGreaterThan(0);
      expect([...seen.get('codex')!.kinds].sort()).toEqual([false, null]);
      expect([...seen.get('opencode')!.kinds].sort()).toEqual([false, true]);
      expect(seen.get('opencode')!.ended.size).toBeGreaterThanOrEqual(2);
    } finally {
      await demo.stop();
    }
  }, 120_000);
});
