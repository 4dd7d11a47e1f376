// The subagent file index of one session (rules 11–12 of RULES.md) over real files in a temp folder: what it
// remembers between scans stays within one scan's bound however many subagents the session keeps spawning.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
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

/** Writes subagent `index`: its first line, its sidecar naming the call, and a modification time that orders it. */
async function writeChild(index: number, description = `Task ${index}`): Promise<void> {
  const id = agentId(index);
  const at = new Date(Date.UTC(2026, 0, 1) + index * 1000);
  const file = path.join(subagents, `agent-${id}.jsonl`);
  await writeFile(file, `${JSON.stringify({ type: 'user', agentId: id, sessionId: SESSION, timestamp: at.toISOString(), message: { role: 'user', content: 'Go.' } })}\n`);
  await writeFile(path.join(subagents, `agent-${id}.meta.json`), JSON.stringify({ agentType: 'Explore', description, toolUseId: `toolu_${index}` }));
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
  it('remembers the sidecars of the files its last scan listed only, each read once while it stays listed', async () => {
    for (let index = 0; index < SCAN_BOUND; index++) await writeChild(index);
    const index = new ChildFileIndex(folder, SESSION);
    await index.refresh({ flat: false, before: null });
    expect(index.files).toHaveLength(SCAN_BOUND);
    // A listed sidecar rewritten on disk: the index keeps what it read, as it always has.
    await writeChild(SCAN_BOUND - 1, 'Rewritten later');
    // The session spawns ten more: the scan lists the newest ones and forgets the sidecars of those it dropped.
    for (let extra = SCAN_BOUND; extra < SCAN_BOUND + 10; extra++) await writeChild(extra);
    expect(await index.refresh({ flat: false, before: null })).toBe(true);
    expect(index.files).toHaveLength(SCAN_BOUND);
    expect(index.rememberedSidecars).toBe(SCAN_BOUND);
    expect(index.files[0].toolUseId).toBe(`toolu_${SCAN_BOUND + 9}`);
    expect(index.files.find((file) => file.agentId === agentId(SCAN_BOUND - 1))?.description).toBe(`Task ${SCAN_BOUND - 1}`);
    expect(index.files.some((file) => file.agentId === agentId(0))).toBe(false);
  });
});
