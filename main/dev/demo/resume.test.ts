import { describe, expect, it } from 'vitest';
import { findOpenCalls } from './resume';

const call = (uuid: string, id: string, background = false) =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    message: { content: [{ type: 'tool_use', id, name: 'Agent', input: { description: `label ${id}`, prompt: 'p', ...(background ? { run_in_background: true } : {}) } }] },
  });
const result = (id: string, toolUseResult: unknown) =>
  JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] }, toolUseResult });
const notification = (id: string) =>
  JSON.stringify({ type: 'user', message: { content: `<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>${id}</tool-use-id>\n<status>completed</status>\n</task-notification>` } });

describe('findOpenCalls', () => {
  it('keeps calls without a result or notification and skips lines that do not parse', () => {
    const tail = [
      'ial line cut by the tail window"}',
      call('u1', 'fg-done'),
      result('fg-done', { status: 'completed', agentId: 'a1' }),
      call('u2', 'fg-open'),
      call('u3', 'bg-done', true),
      result('bg-done', { status: 'async_launched', agentId: 'abg1' }),
      notification('bg-done'),
      call('u4', 'bg-open', true),
      result('bg-open', { status: 'async_launched', agentId: 'abg2' }),
      call('u5', 'fg-failed'),
      result('fg-failed', 'Error: boom'),
      '{"type":"user","message":{"content":"<task-notif',
    ].join('\n');
    expect(findOpenCalls(tail)).toEqual([
      { toolUseId: 'fg-open', tool: 'Agent', callUuid: 'u2', description: 'label fg-open', agentId: null },
      { toolUseId: 'bg-open', tool: 'Agent', callUuid: 'u4', description: 'label bg-open', agentId: 'abg2' },
    ]);
  });

  it('keeps other tools without a result: a question, a plan, a command awaiting approval', () => {
    const tool = (uuid: string, id: string, name: string) => JSON.stringify({ type: 'assistant', uuid, message: { content: [{ type: 'tool_use', id, name, input: {} }] } });
    const tail = [
      tool('u1', 'ask', 'AskUserQuestion'),
      tool('u2', 'plan', 'ExitPlanMode'),
      tool('u3', 'bash-done', 'Bash'),
      result('bash-done', { stdout: 'ok' }),
      tool('u4', 'bash-open', 'Bash'),
    ].join('\n');
    expect(findOpenCalls(tail)).toEqual([
      { toolUseId: 'ask', tool: 'AskUserQuestion', callUuid: 'u1', description: 'AskUserQuestion', agentId: null },
      { toolUseId: 'plan', tool: 'ExitPlanMode', callUuid: 'u2', description: 'ExitPlanMode', agentId: null },
      { toolUseId: 'bash-open', tool: 'Bash', callUuid: 'u4', description: 'Bash', agentId: null },
    ]);
  });

  it('finds nothing in an empty or foreign tail', () => {
    expect(findOpenCalls('')).toEqual([]);
    expect(findOpenCalls('not json\n{"type":"summary"}\n')).toEqual([]);
  });
});
