import { describe, expect, it } from 'vitest';
import { headerLine, threadId } from '../../../dev/testing/codexRollout';
import { parseHeader, type CodexHeader } from './header';
import { childEntry, IDLE_AFTER_MS, summarise, type ChildFacts } from './projection';
import type { ChildRecord } from './records';

const parent = threadId(1);
const base = Date.parse('2026-04-20T10:00:00.000Z');

function facts(n: number, mtimeMs: number, latestTaskStartedMs: number | null = null): ChildFacts {
  const header = parseHeader(headerLine({ id: threadId(n), timestamp: new Date(base + n * 1000).toISOString(), parent, nickname: `N${n}` })) as CodexHeader;
  return { header, path: `/x/${n}`, mtimeMs, size: 10, latestTaskStartedMs };
}

function records(entries: Array<[string, Omit<ChildRecord, 'seq'>]>): Map<string, ChildRecord> {
  return new Map(entries.map(([key, record], seq) => [key, { ...record, seq }]));
}

describe('child entries', () => {
  it('rule 5b: a child the parent waited on is foreground; one no wait names is not known (Codex records no background mode), never assumed background', () => {
    const child = facts(2, base);
    expect(childEntry(child, new Map(), base + 1, new Set([threadId(2).toLowerCase()])).background).toBe(false);
    expect(childEntry(child, new Map(), base + 1, new Set()).background).toBeNull();
  });

  it('a child nobody reported on stays running until five minutes without a write, then ends idle (estimated)', () => {
    const child = facts(2, base);
    expect(childEntry(child, new Map(), base + IDLE_AFTER_MS - 1)).toMatchObject({ state: 'running', background: null, kind: null, label: 'N2' });
    const ended = childEntry(child, new Map(), base + IDLE_AFTER_MS);
    expect(ended).toEqual({
      nativeId: threadId(2), label: 'N2', kind: null, background: null, startedAt: '2026-04-20T10:00:02.000Z', replayable: true,
      state: 'ended', outcome: 'idle', endedAt: '2026-04-20T10:05:00.000Z', endedAtEstimated: true,
    });
  });

  it('an explicit running status from the parent wins over idleness', () => {
    const map = records([[threadId(2), { at: '2026-04-20T10:00:03.000Z', state: 'running', reopen: false }]]);
    expect(childEntry(facts(2, base), map, base + 60 * IDLE_AFTER_MS).state).toBe('running');
  });

  it('an ending record gives outcome and endedAt; a newer task_started in the child reopens it', () => {
    const map = records([[threadId(2), { at: '2026-04-20T10:00:30.000Z', state: 'ended', outcome: 'completed', reopen: false }]]);
    expect(childEntry(facts(2, base + 40_000), map, base + 50_000)).toMatchObject({ state: 'ended', outcome: 'completed', endedAt: '2026-04-20T10:00:30.000Z' });
    const reopened = childEntry(facts(2, base + 40_000, base + 35_000), map, base + 50_000);
    expect(reopened).toMatchObject({ state: 'running', nativeId: threadId(2) });
    expect(reopened.endedAt).toBeUndefined();
  });

  it('a reopening call clears the ending; idleness then counts from the later of the call and the last write', () => {
    const map = records([[threadId(2), { at: '2026-04-20T10:01:00.000Z', state: 'running', reopen: true }]]);
    expect(childEntry(facts(2, base), map, base + 60_000 + IDLE_AFTER_MS - 1).state).toBe('running');
    expect(childEntry(facts(2, base), map, base + 60_000 + IDLE_AFTER_MS)).toMatchObject({ outcome: 'idle', endedAt: '2026-04-20T10:06:00.000Z' });
  });

  it('matches a record by agent path as well as by thread id', () => {
    const header = parseHeader(headerLine({ id: threadId(5), timestamp: new Date(base).toISOString(), parent, agentPath: '/root/changelog' })) as CodexHeader;
    const map = records([['/root/changelog', { at: '2026-04-20T10:00:09.000Z', state: 'ended', outcome: 'failed', reopen: false }]]);
    expect(childEntry({ header, path: '/x', mtimeMs: base, size: 1, latestTaskStartedMs: null }, map, base)).toMatchObject({ outcome: 'failed', label: '/root/changelog' });
  });
});

describe('summary', () => {
  it('counts every running child and lists the 8 newest by startedAt', () => {
    const entries = Array.from({ length: 10 }, (_, index) => childEntry(facts(index + 2, base + 1e9), new Map(), base + 1e9));
    const summary = summarise(entries);
    expect(summary.running).toBe(10);
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual([11, 10, 9, 8, 7, 6, 5, 4].map(threadId));
  });
});
