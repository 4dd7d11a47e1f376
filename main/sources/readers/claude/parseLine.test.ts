// Edge cases of the pure line parser that the rule fixtures do not isolate.
import { describe, expect, it } from 'vitest';
import { digestOf, findNotifications, parseLine } from './parseLine';
import { agentCall, assistantLine, isoAt, toolResult, userLine } from '../../../dev/testing/claudeJournal';

const context = { sessionId: 's-1', at: isoAt(0) };

describe('parseLine', () => {
  it('reads every task-notification in one text, with or without a tool-use id', () => {
    const text = '<task-notification><task-id>a1</task-id><status>completed</status></task-notification> then '
      + '<task-notification>\n<task-id>a2</task-id>\n<tool-use-id>toolu_2</tool-use-id>\n<status>killed</status>\n</task-notification>';
    expect(findNotifications(text)).toEqual([
      { taskId: 'a1', toolUseId: null, status: 'completed' },
      { taskId: 'a2', toolUseId: 'toolu_2', status: 'killed' },
    ]);
  });

  it('does not attribute a line-level toolUseResult when the line holds several results', () => {
    const line = userLine(context, [toolResult('toolu_a', 'x'), toolResult('toolu_b', 'y', true)], { status: 'completed', agentId: 'aaa' });
    expect(parseLine(line)).toMatchObject({
      type: 'user',
      results: [
        { toolUseId: 'toolu_a', isError: false, status: null, agentId: null },
        { toolUseId: 'toolu_b', isError: true, status: null, agentId: null },
      ],
    });
  });

  it('ignores sidechain speech, queue-operation echoes and notifications inside tool results', () => {
    expect(parseLine(assistantLine({ ...context, sidechain: true, agentId: 'a1' }, 'm', [agentCall('toolu_x', 'X')]))).toBeNull();
    expect(parseLine(JSON.stringify({ type: 'queue-operation', content: '<task-notification><task-id>a</task-id></task-notification>' }))).toBeNull();
    expect(parseLine(userLine(context, [toolResult('toolu_poll', '<task-notification><task-id>a</task-id><status>completed</status></task-notification>')]))).toMatchObject({ notifications: [] });
  });

  it('hashes a call\'s prompt only where an inline sidechain can follow: a 1.0.x line, or one that names no build', () => {
    const prompt = 'Survey the parser and report what it drops.';
    const call = (version: unknown) => {
      const line = JSON.parse(assistantLine(context, 'm', [agentCall('toolu_p', 'Survey', { prompt })])) as Record<string, unknown>;
      if (version === undefined) delete line.version;
      else line.version = version;
      return parseLine(JSON.stringify(line));
    };
    expect(call('1.0.72')).toMatchObject({ calls: [{ inline: true, promptDigest: digestOf(prompt) }] });
    expect(call('2.0.23')).toMatchObject({ calls: [{ inline: true, promptDigest: digestOf(prompt) }] });
    // Unstated or unreadable: the build is unknown, so the digest is kept in case an inline sidechain follows.
    expect(call(undefined)).toMatchObject({ calls: [{ inline: false, promptDigest: digestOf(prompt) }] });
    expect(call('next')).toMatchObject({ calls: [{ inline: false, promptDigest: digestOf(prompt) }] });
    // 2.0.24 on wrote each subagent to a file of its own: no inline sidechain to match, nothing hashed.
    expect(call('2.0.24')).toMatchObject({ calls: [{ inline: false, promptDigest: null }] });
    expect(call('2.1.114')).toMatchObject({ calls: [{ inline: false, promptDigest: null }] });
  });

  it('marks text that is not a JSON object as invalid and blank lines as nothing', () => {
    expect(parseLine('{"type":"user",')).toEqual({ type: 'invalid' });
    expect(parseLine('"a string"')).toEqual({ type: 'invalid' });
    expect(parseLine('   ')).toBeNull();
  });
});
