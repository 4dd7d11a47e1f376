/** Acknowledgement from each harness's own records: input after the mark counts, nothing before it, nothing else. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageLine, outputLine, eventLine } from '../../dev/testing/codexRollout';
import { makeTempDir, StoreWriter } from '../../dev/testing/opencodeStore';
import { markRecords, recordsShowInput } from './harnessRecords';
import { openCodeLatestSession } from '../../sources/readers/registry';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tempDir(): string {
  const made = makeTempDir('pixelfleet-ack-');
  cleanups.push(made.remove);
  return made.dir;
}

describe('acknowledgement from the records', () => {
  it('Codex: a user message or a tool output appended after the mark; an assistant message is not one', async () => {
    const rollout = path.join(tempDir(), 'rollout.jsonl');
    writeFileSync(rollout, `${messageLine('2026-12-07T09:00:00Z', 'user', 'earlier')}\n`);
    const mark = await markRecords({ harness: 'codex', home: '/unused', sessionId: 's', path: rollout }, '/unused');
    expect(await recordsShowInput(mark)).toBe(false);
    appendFileSync(rollout, `${messageLine('2026-12-07T09:00:01Z', 'assistant', 'thinking')}\n${eventLine('2026-12-07T09:00:01Z', 'agent_message')}\n`);
    expect(await recordsShowInput(mark)).toBe(false);
    // A half-written line does not count until it is whole.
    appendFileSync(rollout, outputLine('2026-12-07T09:00:02Z', 'call_1', 'ok'));
    expect(await recordsShowInput(mark)).toBe(false);
    appendFileSync(rollout, '\n');
    expect(await recordsShowInput(mark)).toBe(true);
  });

  it('Claude Code: the journal is found from the folder when the seat has no path', async () => {
    const claudeHome = tempDir();
    const cwd = '/work/my project';
    const folder = path.join(claudeHome, 'projects', '-work-my-project');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'sid.jsonl'), `${JSON.stringify({ type: 'assistant' })}\n`);
    const mark = await markRecords({ harness: 'claude', home: claudeHome, sessionId: 'sid', cwd }, claudeHome);
    expect(mark).toMatchObject({ kind: 'file', offset: 21 });
    appendFileSync(path.join(folder, 'sid.jsonl'), `${JSON.stringify({ type: 'user', isMeta: true })}\n`);
    expect(await recordsShowInput(mark)).toBe(false);
    appendFileSync(path.join(folder, 'sid.jsonl'), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'yes' } })}\n`);
    expect(await recordsShowInput(mark)).toBe(true);
  });

  it('OpenCode: a user message in the session at or after the send; the latest root session of a folder', async () => {
    const db = path.join(tempDir(), 'opencode.db');
    const store = new StoreWriter(db, { wal: true });
    cleanups.push(() => store.close());
    store.session('ses_old', { directory: '/w', time: 1_000 });
    store.session('ses_new', { directory: '/w', time: 2_000 });
    store.session('ses_child', { directory: '/w', time: 3_000, parent: 'ses_new' });
    expect(await openCodeLatestSession(db, '/w')).toBe('ses_new');
    expect(await openCodeLatestSession(db, '/elsewhere')).toBeNull();
    const mark = await markRecords({ harness: 'opencode', home: db, sessionId: 'ses_new', cwd: '/w' }, '/unused');
    if (mark.kind !== 'store') throw new Error('expected a store mark');
    store.message('ses_new', mark.at - 60_000, { role: 'user' });
    store.message('ses_new', mark.at + 10, { role: 'assistant' });
    store.message('ses_old', mark.at + 10, { role: 'user' });
    expect(await recordsShowInput(mark)).toBe(false);
    store.message('ses_new', mark.at + 20, { role: 'user' });
    expect(await recordsShowInput(mark)).toBe(true);
  });
});
