// Issue 29, format census: a journal of a future Claude Code (unknown line types, renamed fields, a new content
// block type) is read without a crash and without a silent zero, and its seat carries drift naming what is unknown,
// from a version outside the tested range; unknown kinds inside the tested range are counted but not outside it.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeCwd } from './locate';
import { createClaudeReader } from './reader';
import type { Projection } from '../port';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-drift-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function project(fixture: string, sessionId: string): Promise<Projection & { ok: true }> {
  const folder = path.join(home, 'projects', escapeCwd('/work/app'));
  await mkdir(folder, { recursive: true });
  const journal = path.join(folder, `${sessionId}.jsonl`);
  await copyFile(path.join(FIXTURES, fixture), journal);
  const projection = await createClaudeReader({ home }).project({ harness: 'claude', home, sessionId, path: journal });
  if (!projection.ok) throw new Error(projection.reason);
  return projection;
}

describe('Claude format census', () => {
  it('a future journal (2.3.0) gives drift naming its unknown kinds and fields, outside the tested range, and still counts its subagent', async () => {
    const projection = await project('drift-future-2.3.0.jsonl', 'f0f0f0f0-2222-4333-8444-555555555555');
    expect(projection.subagents.running).toBe(1);
    const census = projection.census!;
    expect(census.version).toBe('2.3.0');
    const drift = census.drift!;
    expect(drift.kinds.map((kind) => kind.name).sort()).toEqual(['agent-handoff', 'block:tool_reference', 'checkpoint-marker']);
    expect(drift.fields.map((field) => field.name).sort()).toEqual(['handoffTo', 'session_id', 'ts']);
    expect(drift.kinds.every((kind) => kind.version === '2.3.0' && kind.count === 1)).toBe(true);
    expect(drift.outside).toBe(true);
    // The newest line is of an unknown kind: what the seat does may be wrong.
    expect(drift.newestUnknown).toBe(true);
  });

  it('an unknown kind inside the tested range is counted but not outside it, and a known newest line is not flagged', async () => {
    const projection = await project('drift-in-range-2.1.114.jsonl', 'f0f0f0f1-2222-4333-8444-555555555555');
    const drift = projection.census!.drift!;
    expect(drift.kinds).toEqual([{ name: 'worktree-note', count: 1, version: '2.1.114' }]);
    expect(drift.outside).toBe(false);
    expect(drift.newestUnknown).toBe(false);
  });

  it('the bad-input fixture (no version stated) names its one unknown block kind, and a version-less unknown counts as outside', async () => {
    const projection = await project('rule9-bad-input.jsonl', '5e55a000-0000-4000-8000-00000000000a');
    expect(projection.census?.drift?.kinds.map((kind) => kind.name)).toEqual(['block:future_block']);
    expect(projection.census?.version).toBeNull();
    expect(projection.census?.drift?.outside).toBe(true);
  });
});
