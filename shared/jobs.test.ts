import { describe, expect, it } from 'vitest';
import { FILES_TOUCHED_MAX, boardRows, filesTouched, filterJobs, jobRowKey, roleOptions, runningByHarness, runningCounts, sortJobs, type Job } from './jobs';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function job(alias: string, overrides: Partial<Job> = {}): Job {
  return {
    alias,
    nativeId: alias,
    seatId: 'claude:s',
    personaId: 'p',
    persona: 'Ada',
    role: 'builder',
    harness: 'claude',
    type: 'Explore',
    label: alias,
    kind: 'foreground',
    state: 'running',
    startedAt: ago(1),
    replayable: true,
    ...overrides,
  };
}

describe('rule J3: longest-running first, running before ended', () => {
  it('orders by elapsed time, ended jobs by how long they ran', () => {
    const jobs = [
      job('short', { startedAt: ago(2) }),
      job('done-long', { state: 'ended', startedAt: ago(50), endedAt: ago(20) }),
      job('long', { startedAt: ago(15) }),
      job('done-short', { state: 'ended', startedAt: ago(10), endedAt: ago(9) }),
    ];
    expect(sortJobs(jobs, NOW).map((entry) => entry.alias)).toEqual(['long', 'short', 'done-long', 'done-short']);
  });

  it('breaks ties stably by start and alias', () => {
    const jobs = [job('b', { startedAt: ago(5) }), job('a', { startedAt: ago(5) })];
    expect(sortJobs(jobs, NOW).map((entry) => entry.alias)).toEqual(['a', 'b']);
    expect(sortJobs([...jobs].reverse(), NOW).map((entry) => entry.alias)).toEqual(['a', 'b']);
  });
});

describe('rule J4: filters by harness, role and state', () => {
  const jobs = [
    job('c1'),
    job('x1', { harness: 'codex', role: 'Sound Designer' }),
    job('o1', { harness: 'opencode', role: null, state: 'ended' }),
  ];

  it('keeps everything with no filter', () => {
    expect(filterJobs(jobs, {}).map((entry) => entry.alias)).toEqual(['c1', 'x1', 'o1']);
  });

  it('filters by each field and combines them', () => {
    expect(filterJobs(jobs, { harness: 'codex' }).map((entry) => entry.alias)).toEqual(['x1']);
    expect(filterJobs(jobs, { role: 'sound designer' }).map((entry) => entry.alias)).toEqual(['x1']);
    expect(filterJobs(jobs, { role: '' }).map((entry) => entry.alias)).toEqual(['o1']);
    expect(filterJobs(jobs, { state: 'running' }).map((entry) => entry.alias)).toEqual(['c1', 'x1']);
    expect(filterJobs(jobs, { harness: 'claude', state: 'ended' })).toEqual([]);
  });

  it('counts running jobs per harness', () => {
    expect(runningByHarness(jobs)).toEqual({ claude: 1, codex: 1, opencode: 0 });
  });
});

describe('the board view: counts, role options, rows for a filter, files touched', () => {
  const board = {
    jobs: [
      job('short', { startedAt: ago(2) }),
      job('gone', { state: 'ended', startedAt: ago(40), endedAt: ago(25), harness: 'codex', role: null }),
      job('long', { startedAt: ago(15), role: 'Reviewer', harness: 'opencode' }),
    ],
    unlisted: [
      { seatId: 'claude:s', running: 3, harness: 'claude' as const, persona: 'Ada', role: 'builder' },
      { seatId: 'codex:x', running: 2, harness: 'codex' as const, persona: 'Cy', role: null },
    ],
  };

  it('counts running jobs per harness with the unlisted ones, never the ended', () => {
    expect(runningCounts(board)).toEqual({ claude: 4, codex: 2, opencode: 1 });
  });

  it('offers each role once, lowercase, with "" for no role', () => {
    expect(roleOptions(board.jobs)).toEqual(['', 'builder', 'reviewer']);
  });

  it('rows: rule J3 order, filters applied to jobs and unlisted counts alike', () => {
    expect(boardRows(board, {}, NOW).jobs.map((entry) => entry.alias)).toEqual(['long', 'short', 'gone']);
    expect(boardRows(board, {}, NOW).unlisted.map((entry) => entry.seatId)).toEqual(['claude:s', 'codex:x']);
    const ended = boardRows(board, { state: 'ended' }, NOW);
    expect([ended.jobs.map((entry) => entry.alias), ended.unlisted]).toEqual([['gone'], []]);
    const codex = boardRows(board, { harness: 'codex' }, NOW);
    expect([codex.jobs.map((entry) => entry.alias), codex.unlisted.map((entry) => entry.seatId)]).toEqual([['gone'], ['codex:x']]);
    const builder = boardRows(board, { role: 'builder', state: 'running' }, NOW);
    expect([builder.jobs.map((entry) => entry.alias), builder.unlisted.map((entry) => entry.seatId)]).toEqual([['short'], ['claude:s']]);
  });

  it('a job without a native id keys by seat, start and label', () => {
    expect(jobRowKey(job('a'))).toBe('claude:s|a');
    expect(jobRowKey(job('a', { nativeId: null, startedAt: 'T', label: 'Scan' }))).toBe('claude:s|~T|Scan');
  });

  it('files touched: most recent first, each path once, at most eight, entries without targets ignored', () => {
    const read = (path: string) => ({ targets: [{ path, action: 'read' as const }] });
    const entries = [read('a'), {}, read('b'), { targets: [{ path: 'c', action: 'edit' as const }, { path: 'a', action: 'edit' as const }] }, {}];
    expect(filesTouched(entries)).toEqual([
      { path: 'a', action: 'edit' },
      { path: 'c', action: 'edit' },
      { path: 'b', action: 'read' },
    ]);
    const many = Array.from({ length: 20 }, (_, index) => read(`f${index}`));
    expect(filesTouched(many).map((target) => target.path)).toEqual(['f19', 'f18', 'f17', 'f16', 'f15', 'f14', 'f13', 'f12']);
    expect(FILES_TOUCHED_MAX).toBe(8);
  });
});
