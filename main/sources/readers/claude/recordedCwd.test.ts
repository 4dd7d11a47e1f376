// The working folder of an addressed session comes from what its journal records, within its first 64 KiB.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSession, recordedCwd } from './discover';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function journalWith(...lines: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-cwd-'));
  dirs.push(dir);
  const file = join(dir, 's.jsonl');
  await writeFile(file, lines.map((line) => `${line}\n`).join(''));
  return file;
}

describe('recordedCwd', () => {
  it('takes the first absolute cwd a whole line records, past lines without one and malformed lines', async () => {
    const file = await journalWith('{"type":"summary","summary":"x"}', '{"cwd": broken', '{"type":"user","cwd":"relative/path"}', '{"type":"user","cwd":"/home/ada/src/lantern-parser"}', '{"type":"user","cwd":"/elsewhere"}');
    expect(await recordedCwd(file)).toBe('/home/ada/src/lantern-parser');
  });

  it('is null when no whole line within the first 64 KiB records one, and for a missing file', async () => {
    const long = JSON.stringify({ type: 'user', message: 'x'.repeat(70 * 1024), cwd: '/far/away' });
    expect(await recordedCwd(await journalWith(long))).toBeNull();
    expect(await recordedCwd(await journalWith('{"type":"summary"}'))).toBeNull();
    expect(await recordedCwd('/no/such/journal.jsonl')).toBeNull();
  });

  it('gives a resolved session the folder its journal records, not the lossy folder name', async () => {
    const home = await mkdtemp(join(tmpdir(), 'pixelfleet-cwd-home-'));
    dirs.push(home);
    await mkdir(join(home, 'projects', '-home-ada-src-lantern-parser'), { recursive: true });
    await writeFile(join(home, 'projects', '-home-ada-src-lantern-parser', 's1.jsonl'), '{"type":"user","sessionId":"s1","cwd":"/home/ada/src/lantern-parser"}\n');
    const found = await findSession(home, 's1');
    expect(found?.seat).toMatchObject({ sessionId: 's1', cwd: '/home/ada/src/lantern-parser' });
  });
});
