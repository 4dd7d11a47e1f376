import { describe, expect, it } from 'vitest';
import { callLine, envelopeText, messageLine, notificationText, outputLine, threadId } from '../../../dev/testing/codexRollout';
import { createParentState, normaliseReference, readAgentStatus, reduceParentLine, type ParentState } from './records';

const child = threadId(1);
const T = (second: number) => `2026-04-20T10:00:${String(second).padStart(2, '0')}.000Z`;

function reduce(lines: string[]): ParentState {
  const state = createParentState();
  for (const line of lines) reduceParentLine(state, line);
  return state;
}

describe('agent statuses', () => {
  it('maps final statuses to outcomes and keeps running statuses running', () => {
    expect(readAgentStatus({ completed: 'done' })).toEqual({ state: 'ended', outcome: 'completed' });
    expect(readAgentStatus({ completed: null })).toEqual({ state: 'ended', outcome: 'completed' });
    expect(readAgentStatus({ errored: 'boom' })).toEqual({ state: 'ended', outcome: 'failed' });
    expect(readAgentStatus('shutdown')).toEqual({ state: 'ended', outcome: 'stopped' });
    expect(readAgentStatus('interrupted')).toEqual({ state: 'ended', outcome: 'interrupted' });
    expect(readAgentStatus('not_found')).toEqual({ state: 'ended', outcome: 'unknown' });
    expect(readAgentStatus('running')).toEqual({ state: 'running' });
    expect(readAgentStatus('pending_init')).toEqual({ state: 'running' });
    expect(readAgentStatus('sleeping')).toBeNull();
  });

  it('normalises references: relative names live under /root, ids are lower-cased', () => {
    expect(normaliseReference('changelog')).toBe('/root/changelog');
    expect(normaliseReference('/root/changelog/')).toBe('/root/changelog');
    expect(normaliseReference(child.toUpperCase())).toBe(child);
  });
});

describe('parent records', () => {
  it('settles a child from a v1 notification (user message naming its thread id)', () => {
    const state = reduce([messageLine(T(5), 'user', notificationText(child, { completed: 'ok' }))]);
    expect(state.records.get(child)).toMatchObject({ state: 'ended', outcome: 'completed', at: T(5), reopen: false });
  });

  it('settles a child from a v2 envelope whose content is the notification', () => {
    const text = envelopeText('/root/file_counter', '/root', notificationText('/root/file_counter', { errored: 'x' }));
    const state = reduce([messageLine(T(6), 'assistant', text)]);
    expect(state.records.get('/root/file_counter')).toMatchObject({ state: 'ended', outcome: 'failed', at: T(6) });
  });

  it('reads the status map of both wait generations (wait with ids, wait_agent with targets)', () => {
    const other = threadId(2);
    const state = reduce([
      callLine(T(1), 'wait', { ids: [child] }, 'c1'),
      outputLine(T(2), 'c1', { status: { [child]: 'interrupted' }, timed_out: false }),
      callLine(T(3), 'wait_agent', { targets: [other] }, 'c2'),
      outputLine(T(4), 'c2', { status: { [other]: { completed: null } }, timed_out: false }),
    ]);
    expect(state.records.get(child)).toMatchObject({ state: 'ended', outcome: 'interrupted', at: T(2) });
    expect(state.records.get(other)).toMatchObject({ state: 'ended', outcome: 'completed', at: T(4) });
    // Rule 5b: the children a wait names are the ones the parent held for (foreground).
    expect([...state.waited].sort()).toEqual([child, other].map((id) => id.toLowerCase()).sort());
  });

  it('ignores a v2 wait acknowledgement, a timed-out wait and a spawn output', () => {
    const state = reduce([
      callLine(T(1), 'spawn_agent', { message: 'go' }, 's1'),
      outputLine(T(2), 's1', { agent_id: child, nickname: 'Euclid' }),
      callLine(T(3), 'wait_agent', { timeout_ms: 30000 }, 'w1'),
      outputLine(T(4), 'w1', { message: 'Wait completed.', timed_out: false }),
      callLine(T(5), 'wait_agent', { targets: [child] }, 'w2'),
      outputLine(T(6), 'w2', { status: {}, timed_out: true }),
    ]);
    expect(state.records.size).toBe(0);
  });

  it('close_agent stops the child whatever its previous status (old `id` and new `target`)', () => {
    const state = reduce([
      callLine(T(1), 'close_agent', { id: child }, 'k1'),
      outputLine(T(2), 'k1', { previous_status: { completed: 'x' } }),
      callLine(T(3), 'close_agent', { target: 'licence_check' }, 'k2'),
      outputLine(T(4), 'k2', { previous_status: 'running' }),
    ]);
    expect(state.records.get(child)).toMatchObject({ state: 'ended', outcome: 'stopped', at: T(2) });
    expect(state.records.get('/root/licence_check')).toMatchObject({ state: 'ended', outcome: 'stopped', at: T(4) });
  });

  it('list_agents records each named agent with its status', () => {
    const state = reduce([
      callLine(T(1), 'list_agents', {}, 'l1'),
      outputLine(T(2), 'l1', { agents: [{ agent_name: '/root', agent_status: 'running' }, { agent_name: '/root/a', agent_status: 'pending_init' }, { agent_name: '/root/b', agent_status: 'shutdown' }] }),
    ]);
    expect(state.records.get('/root/a')).toMatchObject({ state: 'running', reopen: false });
    expect(state.records.get('/root/b')).toMatchObject({ state: 'ended', outcome: 'stopped' });
  });

  it('the latest record wins, in file order', () => {
    const state = reduce([
      messageLine(T(1), 'user', notificationText(child, { completed: 'a' })),
      callLine(T(2), 'list_agents', {}, 'l1'),
      outputLine(T(3), 'l1', { agents: [{ agent_name: child, agent_status: 'running' }] }),
    ]);
    expect(state.records.get(child)).toMatchObject({ state: 'running', at: T(3) });
  });

  it('a successful followup_task, send_input or resume_agent reopens; an error output does not', () => {
    const state = reduce([
      callLine(T(1), 'followup_task', { target: 'changelog', message: 'more' }, 'f1'),
      outputLine(T(2), 'f1', ''),
      callLine(T(3), 'send_input', { id: child, message: 'more' }, 'f2'),
      outputLine(T(4), 'f2', { submission_id: 'sub-1' }),
      callLine(T(5), 'resume_agent', { id: threadId(3) }, 'f3'),
      outputLine(T(6), 'f3', { status: 'running' }),
      callLine(T(7), 'send_input', { target: threadId(4), message: 'x' }, 'f4'),
      outputLine(T(8), 'f4', `agent with id ${threadId(4)} not found`),
    ]);
    expect(state.records.get('/root/changelog')).toMatchObject({ state: 'running', reopen: true, at: T(2) });
    expect(state.records.get(child)).toMatchObject({ state: 'running', reopen: true });
    expect(state.records.get(threadId(3))).toMatchObject({ state: 'running', reopen: true });
    expect(state.records.has(threadId(4))).toBe(false);
  });

  it('counts a malformed line and keeps going', () => {
    const state = reduce(['{"timestamp":', messageLine(T(1), 'user', notificationText(child, 'shutdown'))]);
    expect(state.malformed).toBe(1);
    expect(state.records.get(child)).toMatchObject({ outcome: 'stopped' });
  });
});
