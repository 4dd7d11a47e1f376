/** The pure rules of a persona's terminal: what may be sent, which keys, tmux's listings and output, record types. */
import { describe, expect, it } from 'vitest';
import { DIALOG_KEYS, isAllowedKey, sendTextProblem } from '../../../shared/terminal';
import { flagValue } from './adoption';
import { isInputRecord } from './harnessRecords';
import { decodeOutput } from './paneStream';
import { harnessOf } from './processes';
import { parsePanes } from './TerminalAdapter';

describe('what may be typed (shared/terminal.ts rules 1 and 2)', () => {
  it('rule 1: one line of at most 4 KiB of UTF-8 with no control characters', () => {
    expect(sendTextProblem('hello "world" $(x) é')).toBeNull();
    expect(sendTextProblem('')).toMatch(/nothing to send/);
    expect(sendTextProblem('a'.repeat(4096))).toBeNull();
    expect(sendTextProblem('a'.repeat(4097))).toMatch(/at most 4096 bytes \(this one is 4097\)/);
    expect(sendTextProblem('✓'.repeat(1366))).toMatch(/this one is 4098/);
    for (const control of ['\n', '\r', '\t', '\u0000', '\u001b', '\u007f', '\u0085', '\u009b']) expect(sendTextProblem(`a${control}b`)).toMatch(/control characters/);
  });

  it('rule 2: named keys and one printable character; nothing else', () => {
    for (const key of ['Enter', 'Escape', 'Tab', 'Up', 'Down', 'Left', 'Right', 'Space', 'BSpace', 'C-c', 'y', '1', 'é', '✓']) expect(isAllowedKey(key)).toBe(true);
    for (const key of ['F1', 'C-d', 'M-x', 'enter', 'yy', '', ' ', '\u001b', '\r', 'Home']) expect(isAllowedKey(key)).toBe(false);
  });

  it('rule 3: every dialog key of every harness is itself an allowed key', () => {
    for (const actions of Object.values(DIALOG_KEYS)) for (const keys of Object.values(actions)) for (const key of keys) expect(isAllowedKey(key)).toBe(true);
  });
});

describe('tmux listings and control-mode output', () => {
  it('reads panes with the session name last, spaces and all, and the persona id empty when absent', () => {
    expect(parsePanes('%3 0 1 4242 p_ab pf-ada\n%7 2 0 99  my odd: session\nnonsense\n')).toEqual([
      { paneId: '%3', session: 'pf-ada', pid: 4242, persona: 'p_ab', target: 'pf-ada:0.1' },
      { paneId: '%7', session: 'my odd: session', pid: 99, persona: '', target: 'my odd: session:2.0' },
    ]);
  });

  it('decodes the octal escapes of %output, keeping UTF-8 bytes and backslashes', () => {
    const raw = Buffer.from('é', 'utf8').toString('latin1');
    expect(decodeOutput(`hi\\015\\012\\033[1m${raw}\\134x`).toString('utf8')).toBe('hi\r\n\x1b[1mé\\x');
  });
});

describe('adoption and acknowledgement helpers', () => {
  it('reads a flag as `--flag v` or `--flag=v`', () => {
    expect(flagValue(['claude', '--resume', 'abc'], ['--session-id', '--resume', '-r'])).toBe('abc');
    expect(flagValue(['claude', '--session-id=xyz'], ['--session-id'])).toBe('xyz');
    expect(flagValue(['claude', 'hello'], ['--resume'])).toBeNull();
  });

  it('knows a harness by its executable or the script its interpreter runs, never by other words', () => {
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['/usr/bin/claude', '--resume', 'x'], startedAt: null })).toBe('claude');
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['node', '/home/a/bin/claude'], startedAt: null })).toBe('claude');
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], startedAt: null })).toBe('claude');
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['/opt/codex/codex', 'resume'], startedAt: null })).toBe('codex');
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['/home/a/.opencode/bin/opencode', '/w'], startedAt: null })).toBe('opencode');
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['vim', 'claude'], startedAt: null })).toBeNull();
    expect(harnessOf({ pid: 1, ppid: 0, argv: ['bash'], startedAt: null })).toBeNull();
  });

  it('counts a new user turn or tool result as input, and nothing else', () => {
    expect(isInputRecord(JSON.stringify({ type: 'user', message: { role: 'user', content: 'x' } }))).toBe(true);
    expect(isInputRecord(JSON.stringify({ type: 'user', isMeta: true, message: { role: 'user', content: 'x' } }))).toBe(false);
    expect(isInputRecord(JSON.stringify({ type: 'assistant' }))).toBe(false);
    expect(isInputRecord(JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user' } }))).toBe(true);
    expect(isInputRecord(JSON.stringify({ type: 'response_item', payload: { type: 'function_call_output' } }))).toBe(true);
    expect(isInputRecord(JSON.stringify({ type: 'event_msg', payload: { type: 'user_message' } }))).toBe(true);
    expect(isInputRecord(JSON.stringify({ type: 'event_msg', payload: { type: 'agent_message' } }))).toBe(false);
    expect(isInputRecord('{ half a line')).toBe(false);
  });
});
