// One small real SQLite store per OpenCode activity rule, read through the reader's own pass (same connection as
// the subagent summary) and evaluated at chosen times.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { evaluateActivity } from '../kit/activityBasis';
import { projectSeat } from './reader';
import { perTestCleanups } from '../../../dev/testing/cleanups';
import { StoreWriter } from '../../../dev/testing/opencodeStore';

const { tempDir } = perTestCleanups();
const T0 = Date.parse('2026-05-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A store with one session, written by `build`; returns the seat's activity at `nowMs`. */
async function activityOf(build: (store: StoreWriter, session: string) => void, nowMs: number) {
  const home = join(tempDir(), 'opencode.db');
  const store = new StoreWriter(home);
  const session = store.session('ses_activity', { time: T0 });
  build(store, session);
  store.close();
  const seat: SeatAddress = { harness: 'opencode', home, sessionId: session, cwd: '/work/repo', path: null };
  const projection = await projectSeat(seat);
  if (!projection.ok) throw new Error(projection.reason);
  return { activity: evaluateActivity(projection.activity, nowMs), turnMs: projection.activity.turnMs };
}

const user = (store: StoreWriter, session: string, time: number) => store.message(session, time, { role: 'user', time: { created: time } });

describe('rule 1: a completed last assistant message with no running tool is turn-done', () => {
  it('is certain, since the completion time, with the turn time', async () => {
    const { activity, turnMs } = await activityOf((store, session) => {
      user(store, session, T0 + 1000);
      store.message(session, T0 + 2000, { role: 'assistant', finish: 'stop', time: { created: T0 + 2000, completed: T0 + 65_000 } });
    }, T0 + 70_000);
    expect(activity).toEqual({ state: 'needs-you', why: 'turn-done', certain: true, since: iso(T0 + 65_000) });
    expect(turnMs).toBe(64_000);
  });
});

describe('rule 2: a completed message with an error', () => {
  it('is an error, and an aborted message is interrupted', async () => {
    const failed = await activityOf((store, session) => {
      user(store, session, T0);
      store.message(session, T0 + 1, { role: 'assistant', time: { created: T0 + 1, completed: T0 + 5000 }, error: { name: 'APIError', data: { message: 'secret detail' } } });
    }, T0 + 6000);
    expect(failed.activity).toEqual({ state: 'needs-you', why: 'error', certain: true, since: iso(T0 + 5000) });
    const aborted = await activityOf((store, session) => {
      user(store, session, T0);
      store.message(session, T0 + 1, { role: 'assistant', time: { created: T0 + 1, completed: T0 + 3000 }, error: { name: 'MessageAbortedError' } });
    }, T0 + 6000);
    expect(aborted.activity).toMatchObject({ state: 'needs-you', why: 'interrupted', certain: true });
  });
});

describe('rule 3: working', () => {
  it('is working with the running tool as the label', async () => {
    const { activity } = await activityOf((store, session) => {
      user(store, session, T0);
      const message = store.message(session, T0 + 1, { role: 'assistant', time: { created: T0 + 1 } });
      store.part(message, session, T0 + 2, { type: 'tool', callID: 'c1', tool: 'bash', state: { status: 'running', input: { command: 'secret' } } });
    }, T0 + 600_000);
    expect(activity).toEqual({ state: 'working', certain: true, since: iso(T0), label: 'bash' });
  });

  it('is working for an unanswered prompt and for a step that ended in tool-calls', async () => {
    const prompt = await activityOf((store, session) => user(store, session, T0), T0 + 60_000);
    expect(prompt.activity).toEqual({ state: 'working', certain: true, since: iso(T0) });
    const step = await activityOf((store, session) => {
      user(store, session, T0);
      store.message(session, T0 + 1, { role: 'assistant', finish: 'tool-calls', time: { created: T0 + 1, completed: T0 + 2 } });
    }, T0 + 60_000);
    expect(step.activity).toEqual({ state: 'working', certain: true, since: iso(T0) });
  });
});

describe('rule 4: no approval state in the store', () => {
  it('shows a pending tool as working however long it waits (never approval or question)', async () => {
    const { activity } = await activityOf((store, session) => {
      user(store, session, T0);
      const message = store.message(session, T0 + 1, { role: 'assistant', time: { created: T0 + 1 } });
      store.part(message, session, T0 + 2, { type: 'tool', callID: 'c1', tool: 'edit', state: { status: 'pending' } });
    }, T0 + 3_600_000);
    expect(activity).toMatchObject({ state: 'working', label: 'edit' });
  });
});

describe('rule 5: turn-done older than 30 minutes is idle; an empty session is idle by lack of evidence', () => {
  it('keeps since', async () => {
    const { activity } = await activityOf((store, session) => {
      user(store, session, T0);
      store.message(session, T0 + 1, { role: 'assistant', time: { created: T0 + 1, completed: T0 + 2000 } });
    }, T0 + 2000 + 30 * 60_000);
    expect(activity).toEqual({ state: 'idle', certain: true, since: iso(T0 + 2000) });
    expect((await activityOf(() => {}, T0)).activity).toEqual({ state: 'idle', certain: false, since: null });
  });
});
