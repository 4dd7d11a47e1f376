import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSession } from './discover';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A Claude home with `folders` project folders, each holding one session journal named after its folder. */
function home(folders: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-folder-index-'));
  homes.push(dir);
  for (let index = 0; index < folders; index += 1) {
    mkdirSync(join(dir, 'projects', `-work-p${index}`), { recursive: true });
    writeFileSync(join(dir, 'projects', `-work-p${index}`, `s${index}.jsonl`), `${JSON.stringify({ type: 'user', cwd: `/work/p${index}`, sessionId: `s${index}` })}\n`);
  }
  return dir;
}

describe('finding a Claude session among many project folders', () => {
  it('finds every session of a burst of look-ups, each in its own folder', async () => {
    const dir = home(40);
    const found = await Promise.all(Array.from({ length: 40 }, (_, index) => findSession(dir, `s${index}`)));
    expect(found.map((candidate) => candidate?.seat.path)).toEqual(Array.from({ length: 40 }, (_, index) => join(dir, 'projects', `-work-p${index}`, `s${index}.jsonl`)));
    expect(found.map((candidate) => candidate?.seat.cwd)).toEqual(Array.from({ length: 40 }, (_, index) => `/work/p${index}`));
  });

  it('finds a session written after the listing, and one moved to another folder since', async () => {
    const dir = home(5);
    expect(await findSession(dir, 's0')).not.toBeNull();
    writeFileSync(join(dir, 'projects', '-work-p3', 'late.jsonl'), `${JSON.stringify({ type: 'user', cwd: '/work/p3', sessionId: 'late' })}\n`);
    expect((await findSession(dir, 'late'))?.seat.path).toBe(join(dir, 'projects', '-work-p3', 'late.jsonl'));
    renameSync(join(dir, 'projects', '-work-p1', 's1.jsonl'), join(dir, 'projects', '-work-p4', 's1.jsonl'));
    expect((await findSession(dir, 's1'))?.seat.path).toBe(join(dir, 'projects', '-work-p4', 's1.jsonl'));
    rmSync(join(dir, 'projects', '-work-p2', 's2.jsonl'));
    expect(await findSession(dir, 's2')).toBeNull();
  });
});
