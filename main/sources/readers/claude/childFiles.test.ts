// The subagent file index of one session (rules 11–12 of RULES.md) over real files in a temp folder: what it
// remembers between scans stays within one scan's bound however many subagents the session keeps spawning, and a
// census for a call still waiting for its locator lists, stats and reads only what is new in the folder.
import { appendFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EARLIER_LIMIT, RECENT_LIMIT } from '../kit/bounds';
import { ChildFileIndex } from './childFiles';

const SESSION = 'aaaaaaaa-bbbb-4ccc-8ddd-000000000017';
/** Files one scan lists at most when no read window is given (every file counts as earlier). */
const SCAN_BOUND = EARLIER_LIMIT + RECENT_LIMIT;

let folder: string;
let subagents: string;

const agentId = (index: number) => `a${index.toString(16).padStart(16, '0')}`;

/** The first line of subagent `index`, started at `at`. */
const firstLine = (index: number, at: Date) =>
  `${JSON.stringify({ type: 'user', agentId: agentId(index), sessionId: SESSION, timestamp: at.toISOString(), message: { role: 'user', content: 'Go.' } })}\n`;

/** Writes subagent `index`'s sidecar naming its call `toolu_<index>`. */
async function writeSidecar(index: number, description = `Task ${index}`): Promise<void> {
  await writeFile(path.join(subagents, `agent-${agentId(index)}.meta.json`), JSON.stringify({ agentType: 'Explore', description, toolUseId: `toolu_${index}` }));
}

/** Writes subagent `index`: its first line, its sidecar naming the call, and a modification time that orders it. */
async function writeChild(index: number, description = `Task ${index}`, sidecar = true): Promise<void> {
  const at = new Date(Date.UTC(2026, 0, 1) + index * 1000);
  const file = path.join(subagents, `agent-${agentId(index)}.jsonl`);
  await writeFile(file, firstLine(index, at));
  if (sidecar) await writeSidecar(index, description);
  await utimes(file, at, at);
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-children-'));
  subagents = path.join(folder, SESSION, 'subagents');
  await mkdir(subagents, { recursive: true });
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the subagent file index', () => {
  it.each([true, false])('remembers the sidecars of the files its last scan listed only, each read once while it stays listed (restat %s)', async (restat) => {
    for (let index = 0; index < SCAN_BOUND; index++) await writeChild(index);
    const index = new ChildFileIndex(folder, SESSION);
    await index.refresh({ flat: false, before: null, restat });
    expect(index.files).toHaveLength(SCAN_BOUND);
    // A listed sidecar rewritten on disk: the index keeps what it read, as it always has.
    await writeChild(SCAN_BOUND - 1, 'Rewritten later');
    // The session spawns ten more: the scan lists the newest ones and forgets the sidecars of those it dropped.
    for (let extra = SCAN_BOUND; extra < SCAN_BOUND + 10; extra++) await writeChild(extra);
    expect(await index.refresh({ flat: false, before: null, restat })).toBe(true);
    expect(index.files).toHaveLength(SCAN_BOUND);
    expect(index.rememberedSidecars).toBe(SCAN_BOUND);
    expect(index.files[0].toolUseId).toBe(`toolu_${SCAN_BOUND + 9}`);
    expect(index.files.find((file) => file.agentId === agentId(SCAN_BOUND - 1))?.description).toBe(`Task ${SCAN_BOUND - 1}`);
    expect(index.files.some((file) => file.agentId === agentId(0))).toBe(false);
  });

  it('lists, stats and reads nothing on a census where the folder did not move, and only what is new when it did', async () => {
    for (let index = 0; index < 20; index++) await writeChild(index);
    const index = new ChildFileIndex(folder, SESSION);
    // A census while a call has no locator yet and the window covers the whole journal (reader.ts).
    const census = () => index.refresh({ flat: false, before: null, restat: false });
    expect(await census()).toBe(true);
    expect(index.io).toEqual({ listings: 1, stats: 20, reads: 40 });
    expect(await census()).toBe(false);
    expect(index.io).toEqual({ listings: 1, stats: 20, reads: 40 });

    // A new subagent file, its sidecar not written yet: one listing, one stat, its first line.
    await writeChild(20, 'Task 20', false);
    expect(await census()).toBe(true);
    expect(index.io).toEqual({ listings: 2, stats: 21, reads: 41 });
    expect(index.files[0]).toMatchObject({ agentId: agentId(20), toolUseId: null });
    expect(await census()).toBe(false);
    expect(index.io).toEqual({ listings: 2, stats: 21, reads: 41 });

    // Its sidecar arrives: the file is looked at again, and the sidecar names its call.
    await writeSidecar(20);
    expect(await census()).toBe(true);
    expect(index.io).toEqual({ listings: 3, stats: 22, reads: 42 });
    expect(index.files[0]).toMatchObject({ agentId: agentId(20), toolUseId: 'toolu_20', description: 'Task 20' });
    expect(index.files).toHaveLength(21);
  });

  it('reads a first line still being written again on the next census, without listing the folder again', async () => {
    const index = new ChildFileIndex(folder, SESSION);
    const census = () => index.refresh({ flat: false, before: null, restat: false });
    const line = firstLine(1, new Date(Date.UTC(2026, 0, 1)));
    const file = path.join(subagents, `agent-${agentId(1)}.jsonl`);
    await writeFile(file, line.slice(0, 40));
    await writeSidecar(1);
    expect(await census()).toBe(false);
    expect(index.files).toHaveLength(0);
    expect(index.io).toEqual({ listings: 1, stats: 1, reads: 1 });
    await appendFile(file, line.slice(40));
    expect(await census()).toBe(true);
    expect(index.io).toEqual({ listings: 1, stats: 1, reads: 3 });
    expect(index.files.map((child) => child.toolUseId)).toEqual(['toolu_1']);
    expect(await census()).toBe(false);
    expect(index.io).toEqual({ listings: 1, stats: 1, reads: 3 });
  });
});
