/**
 * The watches behind live updates, on real files: an appended file, a folder's new entry, a file not yet written
 * (reported when it appears, then watched as it is), and a file replaced by another are each reported by path.
 */
import { appendFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathWatchers } from './pathWatchers';

let dir = '';
let watchers: PathWatchers;
let heard: (readonly string[] | null)[] = [];
let waiters: (() => void)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pixelfleet-watch-'));
  heard = [];
  waiters = [];
  watchers = new PathWatchers((paths) => {
    heard.push(paths);
    for (const wake of waiters.splice(0)) wake();
  });
});

afterEach(async () => {
  await watchers.close();
  await rm(dir, { recursive: true, force: true });
});

/** Waits (polling the events heard, up to 5 s) until an event named `path`. */
async function until(path: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!heard.some((paths) => paths?.includes(path))) {
    if (Date.now() > deadline) throw new Error(`no event named ${path}; heard ${JSON.stringify(heard)}`);
    await new Promise<void>((wake) => {
      waiters.push(wake);
      setTimeout(wake, 50);
    });
  }
}

describe('path watchers', () => {
  it('names an appended file, and a folder with its new entry', async () => {
    const file = join(dir, 'journal.jsonl');
    const folder = join(dir, 'sessions');
    await writeFile(file, 'one\n');
    await mkdir(folder);
    watchers.set(new Set([file, folder]));
    expect(watchers.size).toBe(2);

    await appendFile(file, 'two\n');
    await until(file);
    const child = join(folder, 'child.jsonl');
    await writeFile(child, 'child\n');
    await until(child);
    expect(heard.some((paths) => paths?.includes(child) && paths.includes(folder))).toBe(true);
  });

  it('reports a file not yet written when it appears, and watches it as it is at the next set', async () => {
    const later = join(dir, 'later', 'journal.jsonl');
    await mkdir(join(dir, 'later'));
    watchers.set(new Set([later]));
    await writeFile(later, 'first\n');
    await until(later);

    watchers.set(new Set([later]));
    heard = [];
    await appendFile(later, 'second\n');
    await until(later);
  });

  it('follows a file replaced by another once set again, and lets go of paths no longer wanted', async () => {
    const file = join(dir, 'personas.json');
    await writeFile(file, '[]');
    watchers.set(new Set([file]));
    await writeFile(join(dir, 'personas.json.tmp'), '[1]');
    await rename(join(dir, 'personas.json.tmp'), file);
    await until(file);

    watchers.set(new Set([file]));
    heard = [];
    await appendFile(file, ' ');
    await until(file);

    watchers.set(new Set());
    expect(watchers.size).toBe(0);
  });
});
