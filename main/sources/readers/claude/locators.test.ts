// Rules 11, 13 and 14 of RULES.md on hand-written journals in the real formats (fixtures/rule11-live: a 2.1.41
// session with `agent_progress` lines; fixtures/rule13-inline-sidechain.jsonl: a 1.0.108 journal with inline
// sidechains), read in place or copied into temp homes where a test appends to them.
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplayPageSchema, SubagentSummarySchema, type ReplayPage, type SeatAddress, type SubagentEntry } from '../../../../shared/schemas';
import type { Projection, ReplayResult } from '../port';
import { agentCall, assistantLine, isoAt, progressLine, textBlock, toolResult, userLine } from '../../../dev/testing/claudeJournal';
import { createClaudeReader } from './reader';
import { UsageLedger } from './ledger';
import { REPLAY_REASONS, TRAY_NOTES } from './reasons';

const fixtures = path.resolve(process.cwd(), 'main/sources/readers/claude/fixtures');
const LIVE_SESSION = '11111111-2222-4333-8444-555555555555';
const INLINE_SESSION = '13131313-2222-4333-8444-555555555555';

function ok(result: ReplayResult): Extract<ReplayPage, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected a page, got ${JSON.stringify(result)}`);
  expect(ReplayPageSchema.parse(result)).toEqual(result);
  return result;
}

function entries(projection: Projection): Map<string, SubagentEntry> {
  if (!projection.ok) throw new Error(projection.reason);
  expect(SubagentSummarySchema.parse(projection.subagents)).toEqual(projection.subagents);
  return new Map(projection.subagents.recent.map((entry) => [entry.nativeId ?? '', entry]));
}

let temp: string;
beforeEach(async () => {
  temp = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-locators-'));
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

/** A session under `<temp>/projects/-work-demo` with its (empty) subagents folder, its seat and its journal path. */
async function sidecarSession(session: string) {
  const folder = path.join(temp, 'projects', '-work-demo');
  const subagents = path.join(folder, session, 'subagents');
  await mkdir(subagents, { recursive: true });
  const seat: SeatAddress = { harness: 'claude', home: temp, sessionId: session, cwd: '/work/demo' };
  return { subagents, seat, journal: path.join(folder, `${session}.jsonl`), at: (seconds: number) => ({ sessionId: session, at: isoAt(seconds) }) };
}

describe('rule 11: a running subagent is replayable wherever a record locates it', () => {
  const journal = path.join(fixtures, 'rule11-live', `${LIVE_SESSION}.jsonl`);
  const seat: SeatAddress = { harness: 'claude', home: fixtures, sessionId: LIVE_SESSION, path: journal };

  it('2.1.x: agent_progress lines name the call and its child; the child file is checked by its own ids', async () => {
    const reader = createClaudeReader({ home: fixtures });
    const projection = await reader.project(seat);
    const byId = entries(projection);
    expect(projection.ok && projection.subagents.running).toBe(3);
    expect(byId.get('toolu_live')).toMatchObject({ state: 'running', replayable: true });
    expect(byId.get('toolu_live')?.replayNote).toBeUndefined();
    // Only a progress line with an unsafe agent id named it; an id that is not a file name is never taken.
    expect(byId.get('toolu_waiting')).toMatchObject({ state: 'running', replayable: false, replayNote: TRAY_NOTES.notLocated });
    const live = ok(await reader.replay(seat, 'toolu_live'));
    expect(live.running).toBe(true);
    expect(live.entries.map((entry) => entry.text)).toEqual(['Survey the parser module and list its entry points.', 'Reading parser.ts', 'Listing entry points']);
    expect(await reader.replay(seat, 'toolu_waiting')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.notLocated });
    // The printer's progress names a child whose file belongs to another session: refused, nothing shown.
    expect(await reader.replay(seat, 'toolu_spoof')).toEqual({ status: 'refused', reason: REPLAY_REASONS.mismatch });
    // Nothing of the mirrored messages or prompts reaches the snapshot.
    expect(JSON.stringify(projection)).not.toMatch(/Reading|Survey the parser module|entry points/);
  });

  it('becomes replayable as soon as a progress line records the agent id; a located child not yet on disk says so', async () => {
    const home = path.join(temp, 'home');
    const folder = path.join(home, 'projects', '-work-demo');
    await mkdir(folder, { recursive: true });
    await cp(path.join(fixtures, 'rule11-live'), folder, { recursive: true });
    const copy = path.join(folder, `${LIVE_SESSION}.jsonl`);
    const local: SeatAddress = { harness: 'claude', home, sessionId: LIVE_SESSION, cwd: '/work/demo' };
    const reader = createClaudeReader({ home });
    expect(entries(await reader.project(local)).get('toolu_waiting')?.replayable).toBe(false);

    await appendFile(copy, `${progressLine({ sessionId: LIVE_SESSION, at: '2026-03-02T10:00:20.000Z' }, 'toolu_waiting', 'a4d4d4d')}\n`);
    const located = entries(await reader.project(local)).get('toolu_waiting');
    expect(located).toMatchObject({ state: 'running', replayable: true });
    expect(located?.replayNote).toBeUndefined();
    expect(await reader.replay(local, 'toolu_waiting')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.notWrittenYet });

    const child = [
      userLine({ sessionId: LIVE_SESSION, at: '2026-03-02T10:00:19.000Z', sidechain: true, agentId: 'a4d4d4d' }, 'Survey the lexer module and list its token kinds.'),
      assistantLine({ sessionId: LIVE_SESSION, at: '2026-03-02T10:00:21.000Z', sidechain: true, agentId: 'a4d4d4d' }, 'msg_lex', [textBlock('Six token kinds.')]),
    ];
    await writeFile(path.join(folder, LIVE_SESSION, 'subagents', 'agent-a4d4d4d.jsonl'), `${child.join('\n')}\n`);
    expect(ok(await reader.replay(local, 'toolu_waiting')).entries.at(-1)?.text).toBe('Six token kinds.');
    // The call's result records the same id and ends it.
    await appendFile(copy, `${userLine({ sessionId: LIVE_SESSION, at: '2026-03-02T10:00:30.000Z' }, [toolResult('toolu_waiting', 'Six token kinds.')], { status: 'completed', agentId: 'a4d4d4d' })}\n`);
    expect(entries(await reader.project(local)).get('toolu_waiting')).toMatchObject({ state: 'ended', outcome: 'completed', replayable: true });
    expect(ok(await reader.replay(local, 'toolu_waiting')).running).toBe(false);
  });

  it('later 2.1.x: a sidecar agent-<id>.meta.json naming the call locates it once the subagents folder changes', async () => {
    const session = 'aaaaaaaa-bbbb-4ccc-8ddd-000000000011';
    const { subagents, seat, journal, at } = await sidecarSession(session);
    const lines = [
      userLine(at(0), 'Review the branch.'),
      assistantLine(at(1), 'msg_1', [agentCall('toolu_side', 'Review the diff')]),
      assistantLine(at(1), 'msg_1', [agentCall('toolu_foreign', 'Review the tests')]),
    ];
    await writeFile(journal, `${lines.join('\n')}\n`);
    const ledger = new UsageLedger();
    const reader = createClaudeReader({ home: temp, usageLedger: ledger });
    const first = await reader.project(seat);
    expect(entries(first).get('toolu_side')).toMatchObject({ replayable: false, replayNote: TRAY_NOTES.notLocated });
    // Nothing moved (and the usage pass is done): the same answer, the subagents folder not listed again.
    await ledger.idle();
    expect(await reader.project(seat)).toBe(await reader.project(seat));

    const child = (agentId: string, sessionId: string) =>
      `${userLine({ sessionId, at: isoAt(2), sidechain: true, agentId }, 'Please review the diff.')}\n${assistantLine({ sessionId, at: isoAt(3), sidechain: true, agentId }, 'msg_c', [textBlock('Looks fine.')])}\n`;
    await writeFile(path.join(subagents, 'agent-a00112233445566778.jsonl'), child('a00112233445566778', session));
    await writeFile(path.join(subagents, 'agent-a00112233445566778.meta.json'), JSON.stringify({ agentType: 'general-purpose', description: 'Review the diff', toolUseId: 'toolu_side', spawnDepth: 1 }));
    // A sidecar naming the other call, but its file's own first line belongs to another session: not a locator.
    await writeFile(path.join(subagents, 'agent-a99887766554433221.jsonl'), child('a99887766554433221', 'ffffffff-0000-4000-8000-000000000000'));
    await writeFile(path.join(subagents, 'agent-a99887766554433221.meta.json'), JSON.stringify({ agentType: 'general-purpose', description: 'Review the tests', toolUseId: 'toolu_foreign' }));
    const byId = entries(await reader.project(seat));
    expect(byId.get('toolu_side')).toMatchObject({ state: 'running', replayable: true });
    expect(byId.get('toolu_foreign')).toMatchObject({ replayable: false, replayNote: TRAY_NOTES.notLocated });
    const page = ok(await reader.replay(seat, 'toolu_side'));
    expect([page.running, page.entries.at(-1)?.text]).toEqual([true, 'Looks fine.']);
  });

  it('later 2.1.x: a sidecar written after its file was already listed still locates the call on the next census', async () => {
    const session = 'aaaaaaaa-bbbb-4ccc-8ddd-000000000012';
    const { subagents, seat, journal, at } = await sidecarSession(session);
    await writeFile(journal, `${userLine(at(0), 'Review the branch.')}\n${assistantLine(at(1), 'msg_1', [agentCall('toolu_first', 'Look around')])}\n`);
    const reader = createClaudeReader({ home: temp });
    const child = (agentId: string) => `${userLine({ sessionId: session, at: isoAt(2), sidechain: true, agentId }, 'Please look.')}\n`;
    // An earlier child of another call, with its sidecar: listed, nothing located by it.
    await writeFile(path.join(subagents, 'agent-a00000000000000001.jsonl'), child('a00000000000000001'));
    await writeFile(path.join(subagents, 'agent-a00000000000000001.meta.json'), JSON.stringify({ description: 'Old', toolUseId: 'toolu_old' }));
    expect(entries(await reader.project(seat)).get('toolu_first')).toMatchObject({ replayable: false, replayNote: TRAY_NOTES.notLocated });

    // The child file comes first and is listed; its sidecar only on a later census.
    await writeFile(path.join(subagents, 'agent-a00000000000000002.jsonl'), child('a00000000000000002'));
    expect(entries(await reader.project(seat)).get('toolu_first')).toMatchObject({ replayable: false, replayNote: TRAY_NOTES.notLocated });
    expect(entries(await reader.project(seat)).get('toolu_first')).toMatchObject({ replayable: false });
    await writeFile(path.join(subagents, 'agent-a00000000000000002.meta.json'), JSON.stringify({ description: 'Look around', toolUseId: 'toolu_first' }));
    expect(entries(await reader.project(seat)).get('toolu_first')).toMatchObject({ state: 'running', replayable: true });

    // A second call's file and sidecar are written before its line reaches the journal: found on that census.
    await writeFile(path.join(subagents, 'agent-a00000000000000003.jsonl'), child('a00000000000000003'));
    await writeFile(path.join(subagents, 'agent-a00000000000000003.meta.json'), JSON.stringify({ description: 'Then this', toolUseId: 'toolu_second' }));
    expect(entries(await reader.project(seat)).get('toolu_first')).toMatchObject({ replayable: true });
    await appendFile(journal, `${assistantLine(at(5), 'msg_1', [agentCall('toolu_second', 'Then this')])}\n`);
    expect(entries(await reader.project(seat)).get('toolu_second')).toMatchObject({ state: 'running', replayable: true });
  });
});

describe('rule 13: inline sidechains (1.0.x) replay from the parent journal', () => {
  const journal = path.join(fixtures, 'rule13-inline-sidechain.jsonl');
  const seat: SeatAddress = { harness: 'claude', home: fixtures, sessionId: INLINE_SESSION, path: journal };

  it('locates each sidechain by its root content equal to the call’s prompt, between the call and its result', async () => {
    const reader = createClaudeReader({ home: fixtures });
    const projection = await reader.project(seat);
    const byId = entries(projection);
    expect(byId.get('toolu_dirs')).toMatchObject({ outcome: 'completed', replayable: true });
    expect(byId.get('toolu_pkg')).toMatchObject({ outcome: 'completed', replayable: true });
    // The folders block ends at its result; the package block (written after) is not part of it.
    const dirs = ok(await reader.replay(seat, 'toolu_dirs'));
    expect(dirs.running).toBe(false);
    expect(dirs.entries.map((entry) => [entry.role, entry.tool ?? null, entry.text])).toEqual([
      ['user', null, 'List the folders under /path/to/Demo/src and what each holds.'],
      ['assistant', null, 'I will list the folders.'],
      ['tool', 'Read', '/path/to/Demo/src'],
      ['tool', 'Read', 'app\ncomponents'],
      ['assistant', null, 'Two folders: app and components.'],
    ]);
    const pkg = ok(await reader.replay(seat, 'toolu_pkg'));
    expect(pkg.entries[0].text).toBe('Examine the package.json files in /path/to/Demo and report the scripts.');
    expect(pkg.entries.at(-1)?.text).toBe('One script: dev.');
    // The one place a prompt is compared: nothing of it leaves the replay.
    expect(JSON.stringify(projection)).not.toMatch(/Examine the package|List the folders|README for outdated|changelog entry/);
  });

  it('is unavailable, saying why, for identical prompts, a call with no sidechain, and a call still running', async () => {
    const reader = createClaudeReader({ home: fixtures });
    const byId = entries(await reader.project(seat));
    for (const id of ['toolu_readme1', 'toolu_readme2']) {
      expect(byId.get(id)).toMatchObject({ replayable: false, replayNote: TRAY_NOTES.inlineAmbiguous });
      expect(await reader.replay(seat, id)).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.inlineAmbiguous });
    }
    expect(byId.get('toolu_tests')).toMatchObject({ outcome: 'failed', replayable: false, replayNote: TRAY_NOTES.inlineMissing });
    expect(await reader.replay(seat, 'toolu_tests')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.inlineMissing });
    expect(byId.get('toolu_pending')).toMatchObject({ state: 'running', replayable: false, replayNote: TRAY_NOTES.inlineNotWritten });
    expect(await reader.replay(seat, 'toolu_pending')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.inlineNotWritten });
  });

  it('checks the root again before each read: a root rewritten in place is refused', async () => {
    const copy = path.join(temp, `${INLINE_SESSION}.jsonl`);
    const original = readFileSync(journal, 'utf8');
    await writeFile(copy, original);
    const local: SeatAddress = { harness: 'claude', home: temp, sessionId: INLINE_SESSION, path: copy };
    const reader = createClaudeReader({ home: temp });
    expect(entries(await reader.project(local)).get('toolu_dirs')?.replayable).toBe(true);
    // The root's text changes in the middle of the file, same length: the tail (which checks the bytes before its
    // offset) does not notice, but the replay compares the root with the call's prompt again.
    const root = original.lastIndexOf('List the folders under');
    await writeFile(copy, `${original.slice(0, root)}List the foldrrs under${original.slice(root + 'List the folders under'.length)}`);
    expect(await reader.replay(local, 'toolu_dirs')).toEqual({ status: 'refused', reason: REPLAY_REASONS.inlineChanged });
  });
});

describe('rule 14: unavailable answers say what the owner can do', () => {
  it('names the cold-read bound and the removal, and never advises a refresh', () => {
    const texts = [...Object.values(REPLAY_REASONS), ...Object.values(TRAY_NOTES)];
    expect(texts.filter((text) => /refresh/i.test(text))).toEqual([]);
    expect(REPLAY_REASONS.gone).toMatch(/^The subagent file was removed\./);
    expect(TRAY_NOTES.notLocated).toBe('live transcript not located yet; replay opens when the call records its agent id');
  });
});
