// A session's subagent journals for whole-session usage (issue 37): every `agent-*.jsonl` under `subagents/`,
// compaction agents and workflow steps included, sidecars left out; a file that appears later is found again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USAGE_RESTAT_MS } from '../../../kit/usage/bounds';
import { SessionFiles } from './sessionFiles';

let folder: string;
beforeEach(async () => {
  folder = path.join(await mkdtemp(path.join(tmpdir(), 'pixelfleet-session-files-')), 'subagents');
});
afterEach(async () => {
  await rm(path.dirname(folder), { recursive: true, force: true });
});

describe('session files', () => {
  it('lists every subagent journal at once, then again after the restat interval', async () => {
    const seen: (readonly string[])[] = [];
    const files = new SessionFiles((list) => seen.push(list));
    // No folder yet: no subagent files, known at once (not "still listing").
    expect(files.files(folder, 0)).toEqual([]);
    await mkdir(path.join(folder, 'workflows', 'run-1'), { recursive: true });
    await writeFile(path.join(folder, 'agent-a1.jsonl'), '');
    await writeFile(path.join(folder, 'agent-a1.meta.json'), '{}');
    await writeFile(path.join(folder, 'agent-acompact-5f3e.jsonl'), '');
    await writeFile(path.join(folder, 'workflows', 'run-1', 'agent-w1.jsonl'), '');
    await writeFile(path.join(folder, 'workflows', 'run-1', 'journal.jsonl'), '');
    // Within the interval the listing stands; past it, the folder is listed again in the background.
    expect(files.files(folder, USAGE_RESTAT_MS - 1)).toEqual([]);
    files.refresh(USAGE_RESTAT_MS);
    await files.settled();
    const expected = [path.join(folder, 'agent-a1.jsonl'), path.join(folder, 'agent-acompact-5f3e.jsonl'), path.join(folder, 'workflows', 'run-1', 'agent-w1.jsonl')];
    expect(files.files(folder, USAGE_RESTAT_MS)).toEqual(expected);
    expect(seen).toEqual([[], expected]);
  });
});
