// Issue 29, format census: a rollout of a future Codex (unknown envelope and payload types, a renamed envelope
// field) is read without a crash and without a silent zero, and its seat carries drift naming what is unknown from
// a `cli_version` outside the tested range.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexReader } from './reader';

const THREAD = '019e0000-0000-7000-8000-0000000000f1';
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'pixelfleet-codex-drift-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('Codex format census', () => {
  it('a future rollout (0.200.0) gives drift naming its unknown kinds and the renamed fields, outside the tested range', async () => {
    const folder = join(home, 'sessions/2027/03/01');
    await mkdir(folder, { recursive: true });
    const path = join(folder, `rollout-2027-03-01T10-00-00-${THREAD}.jsonl`);
    await copyFile(join(import.meta.dirname, 'fixtures/drift/future-0.200.0.jsonl'), path);
    const projection = await createCodexReader({ home }).project({ harness: 'codex', home, sessionId: THREAD, path });
    if (!projection.ok) throw new Error(projection.reason);
    // Not a silent zero: the seat is read and its turn is known to be running.
    expect(projection.activity.current.state).toBe('working');
    const census = projection.census!;
    expect(census.version).toBe('0.200.0');
    const drift = census.drift!;
    expect(drift.kinds.map((kind) => kind.name).sort()).toEqual(['event_msg.plan_delta', 'response_item.(no type)', 'response_item.agent_handoff', 'world_state']);
    expect(drift.fields.map((field) => field.name).sort()).toEqual(['body', 'ts']);
    expect(drift.outside).toBe(true);
    expect(drift.newestUnknown).toBe(true);
  });

  it('a rollout with only known kinds and fields carries no drift', async () => {
    const folder = join(home, 'sessions/2026/04/20');
    await mkdir(folder, { recursive: true });
    const thread = '019daa55-0000-7000-8000-00000000ac01';
    const path = join(folder, `rollout-2026-04-20T10-00-00-${thread}.jsonl`);
    await copyFile(join(import.meta.dirname, 'fixtures/activity/rule1-task-complete.jsonl'), path);
    const projection = await createCodexReader({ home }).project({ harness: 'codex', home, sessionId: thread, path });
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.census?.drift).toBeUndefined();
  });
});
