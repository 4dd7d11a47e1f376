import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot } from '../../../shared/schemas';
import { HistoryService } from '../history/HistoryService';
import { JobsService } from './JobsService';
import type { JobNotice } from './reminders';

const START = Date.parse('2026-03-01T10:00:00.000Z');
const minute = 60_000;

function snapshot(cursor: number, state: 'running' | 'ended'): FleetSnapshot {
  return {
    cursor,
    seats: [
      {
        id: 'claude:s1',
        harness: 'claude',
        personaId: 'p_a',
        address: { harness: 'claude', home: '/h', sessionId: 's1' },
        activity: { state: 'working', certain: true, since: null },
        subagents: {
          running: state === 'running' ? 1 : 0,
          recent: [
            {
              nativeId: 'toolu_bg',
              label: 'Run the slow suite',
              kind: 'general-purpose',
              background: true,
              state,
              startedAt: new Date(START).toISOString(),
              ...(state === 'ended' ? { endedAt: new Date(START + 12 * minute).toISOString(), outcome: 'completed' as const } : {}),
              replayable: true,
            },
          ],
        },
      },
    ],
    personas: [{ id: 'p_a', name: 'Ada', role: 'tester', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: '', updatedAt: '' }],
    stations: [],
  };
}

/** A fleet that hands out a snapshot and lets the test announce new ones. */
function fakeFleet(first: FleetSnapshot) {
  let current = first;
  const listeners = new Set<(snapshot: FleetSnapshot) => void>();
  return {
    reads: 0,
    async read() {
      this.reads += 1;
      return current;
    },
    onChange(listener: (snapshot: FleetSnapshot) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce(next: FleetSnapshot) {
      current = next;
      for (const listener of listeners) listener(next);
    },
  };
}

let folder: string;
let now: number;
// The aliases come from the real store that keeps them (a history store in the test's folder).
let history: HistoryService;

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-jobs-'));
  now = START + minute;
  history = await HistoryService.open({ file: path.join(folder, 'history.sqlite'), record: true });
});

afterEach(async () => {
  vi.useRealTimers();
  history.dispose();
  await fs.rm(folder, { recursive: true, force: true });
});

function service(fleet: ReturnType<typeof fakeFleet>, testClock = false) {
  return new JobsService({ fleet, aliases: history.aliases, now: () => now, testClock });
}

describe('the jobs service', () => {
  it('raises the reminder on its own timer when the fake clock passes 10 minutes, then the finished notice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fleet = fakeFleet(snapshot(1, 'running'));
    const jobs = service(fleet);
    const boards: JobBoard[] = [];
    const notices: JobNotice[] = [];
    jobs.onChange((board) => boards.push(board));
    jobs.onNotice((notice) => notices.push(notice));
    jobs.start();
    const first = await jobs.board();
    expect(first.jobs.map((job) => [job.alias, job.reminder])).toEqual([['general-purpose-1', undefined]]);
    expect(first.aliases).toEqual({ 'claude:s1|toolu_bg': 'general-purpose-1' });

    // Nine minutes later (1 + 9 = 10 minutes after the job started) the timer set for the due reminder fires.
    now += 9 * minute;
    await vi.advanceTimersByTimeAsync(9 * minute);
    await vi.waitFor(() => expect(notices.map((notice) => notice.kind)).toEqual(['job-reminder']));
    expect(boards.at(-1)!.jobs[0].reminder).toEqual({ count: 1, lastAt: new Date(START + 10 * minute).toISOString() });

    now = START + 12 * minute;
    fleet.announce(snapshot(2, 'ended'));
    await vi.waitFor(() => expect(notices.map((notice) => notice.kind)).toEqual(['job-reminder', 'job-finished']));
    expect(boards.at(-1)!.jobs[0]).toMatchObject({ state: 'ended', outcome: 'completed', reminder: { count: 1 } });
    jobs.dispose();
  });

  it('spaces the boards of a big busy fleet (at most one a second at 100 seats), the latest snapshot last; a small fleet gets one per change', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(START);
    /** A snapshot of `seats` seats, each like the one above. */
    const fleetOf = (seats: number, cursor: number): FleetSnapshot => {
      const one = snapshot(cursor, 'running');
      return { ...one, seats: Array.from({ length: seats }, (_, index) => ({ ...one.seats[0], id: `claude:s${index}`, address: { ...one.seats[0].address, sessionId: `s${index}` } })) };
    };
    const count = async (seats: number, changes: number, everyMs: number) => {
      const fleet = fakeFleet(fleetOf(seats, 0));
      const jobs = service(fleet);
      const cursors: number[] = [];
      jobs.onChange((board) => cursors.push(board.cursor!));
      jobs.start();
      for (let cursor = 1; cursor <= changes; cursor += 1) {
        fleet.announce(fleetOf(seats, cursor));
        await vi.advanceTimersByTimeAsync(everyMs);
      }
      // The last change's board comes once the spacing has passed.
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(cursors.at(-1)).toBe(changes));
      jobs.dispose();
      return cursors;
    };
    // 100 seats changing every 100 ms for 3 s: the first change at once, then one board a second, the last one's too.
    const big = await count(100, 30, 100);
    expect(big[0]).toBe(1);
    expect(big.length).toBeGreaterThanOrEqual(3);
    expect(big.length).toBeLessThanOrEqual(5);
    // 10 seats: every change is worked out as it comes.
    expect(await count(10, 5, 100)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads no snapshot of its own once the fleet has announced one', async () => {
    const fleet = fakeFleet(snapshot(1, 'running'));
    const jobs = service(fleet);
    jobs.start();
    fleet.announce(snapshot(2, 'running'));
    await jobs.board();
    await jobs.board();
    expect(fleet.reads).toBe(0);
    jobs.dispose();
  });

  it('advances its clock only when the test clock is on', async () => {
    const fleet = fakeFleet(snapshot(1, 'running'));
    await expect(service(fleet).advanceClock(11 * minute)).rejects.toThrow(/test clock is off/);
    const jobs = service(fleet, true);
    expect(await jobs.advanceClock(11 * minute)).toBe(11 * minute);
    expect((await jobs.board()).jobs[0].reminder?.count).toBe(1);
  });

  it('carries the fleet cursor it was derived from and tells a new one even when the jobs are unchanged, with the jobs, aliases and counts it told before as the same objects', async () => {
    const fleet = fakeFleet(snapshot(1, 'running'));
    const jobs = service(fleet);
    const boards: JobBoard[] = [];
    jobs.onChange((board) => boards.push(board));
    jobs.start();
    fleet.announce(snapshot(2, 'running'));
    await vi.waitFor(() => expect(boards.map((board) => board.cursor)).toEqual([2]));
    fleet.announce(snapshot(3, 'running'));
    await vi.waitFor(() => expect(boards.map((board) => board.cursor)).toEqual([2, 3]));
    expect(boards[1].jobs).toEqual(boards[0].jobs);
    expect(boards[1].revision).toBe(boards[0].revision! + 1);
    expect(boards[1].jobs).toBe(boards[0].jobs);
    expect(boards[1].aliases).toBe(boards[0].aliases);
    expect(boards[1].unlisted).toBe(boards[0].unlisted);
    // A board whose jobs changed is told with its new jobs.
    now = START + 12 * minute;
    fleet.announce(snapshot(4, 'ended'));
    await vi.waitFor(() => expect(boards).toHaveLength(3));
    expect(boards[2].jobs).not.toBe(boards[1].jobs);
    expect(boards[2].jobs[0]).toMatchObject({ state: 'ended' });
    jobs.dispose();
  });

  it('follows seats, personas and time rules, asking the alias store only for seats whose subagents changed', async () => {
    const fleet = fakeFleet(snapshot(1, 'ended'));
    const asked: string[][] = [];
    // The real alias store, with the keys asked of it noted.
    const aliases = { aliasesFor: (requests: Parameters<HistoryService['aliases']['aliasesFor']>[0]) => (asked.push(requests.map((request) => request.key)), history.aliases.aliasesFor(requests)) };
    const jobs = new JobsService({ fleet, aliases, now: () => now });
    const boards: JobBoard[] = [];
    jobs.onChange((board) => boards.push(board));
    jobs.start();
    now = START + 13 * minute;
    const ended = snapshot(2, 'ended');
    fleet.announce(ended);
    await vi.waitFor(() => expect(boards).toHaveLength(1));
    expect(boards[0].jobs.map((job) => [job.state, job.alias])).toEqual([['ended', 'general-purpose-1']]);

    // Only what the seat is doing changed (a new object, the same subagents): told with the new cursor, nothing asked.
    fleet.announce({ ...ended, cursor: 3, seats: [{ ...ended.seats[0], activity: { state: 'idle', certain: true, since: null } }] });
    await vi.waitFor(() => expect(boards).toHaveLength(2));
    expect(boards[1]).toMatchObject({ cursor: 3, jobs: boards[0].jobs });

    // A persona renamed shows on the board, and so does the ended job leaving once its 30 minutes (rule J2) have passed.
    fleet.announce({ ...ended, cursor: 4, personas: [{ ...ended.personas[0], name: 'Grace' }] });
    await vi.waitFor(() => expect(boards).toHaveLength(3));
    expect(boards[2].jobs[0]).toMatchObject({ persona: 'Grace', alias: 'general-purpose-1' });
    expect(boards[2].aliases).toBe(boards[1].aliases); // the same aliases keep their record
    now = START + 12 * minute + 30 * minute + 1;
    fleet.announce({ ...ended, cursor: 5, personas: [{ ...ended.personas[0], name: 'Grace' }] });
    await vi.waitFor(() => expect(boards).toHaveLength(4));
    expect(boards[3].jobs).toEqual([]);
    expect(asked).toEqual([['claude:s1|toolu_bg']]);

    // A seat whose subagents changed is asked for again, and its new subagent gets its alias.
    const next = snapshot(6, 'running');
    next.seats[0].subagents!.recent.push({ ...next.seats[0].subagents!.recent[0], nativeId: 'toolu_new', startedAt: new Date(now).toISOString() });
    fleet.announce(next);
    await vi.waitFor(() => expect(boards).toHaveLength(5));
    expect(asked).toEqual([['claude:s1|toolu_bg'], ['claude:s1|toolu_bg', 'claude:s1|toolu_new']]);
    expect(boards[4].aliases).toEqual({ 'claude:s1|toolu_bg': 'general-purpose-1', 'claude:s1|toolu_new': 'general-purpose-2' });
    jobs.dispose();
  });
});
