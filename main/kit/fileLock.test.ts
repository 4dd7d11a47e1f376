// The store's lock against real processes: a lock is broken only when its holder is gone, never for its age alone,
// and a release removes only the releaser's own lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PersonaService } from '../core/personas/PersonaService';
import { acquireLock, FOREIGN_LOCK_STALE_MS, LockTimeoutError, lockAbandoned, parseLockHolder } from './fileLock';

let folder: string;
let file: string;
let lockFile: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-lock-'));
  file = path.join(folder, 'personas.json');
  lockFile = `${file}.lock`;
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await fs.rm(folder, { recursive: true, force: true });
});

/** A live process that is not this one (its PID names a holder that is alive). */
function liveProcess(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

async function age(target: string, milliseconds: number): Promise<void> {
  const past = new Date(Date.now() - milliseconds);
  await fs.utimes(target, past, past);
}

describe('the persona store lock', () => {
  it('is kept from a live holder on this host however old it is, and the waiting writer changes nothing', async () => {
    const holder = `${JSON.stringify({ host: os.hostname(), pid: liveProcess(), token: 'theirs' })}\n`;
    await fs.writeFile(lockFile, holder);
    await age(lockFile, 60_000);
    const service = new PersonaService({ file, lockTimeoutMs: 300 });
    const error = await service.hire({ name: 'Ada' }).catch((caught: unknown) => caught);
    service.dispose();
    expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('locked by another process') });
    expect(await fs.readFile(lockFile, 'utf8')).toBe(holder);
    expect((await fs.readdir(folder)).sort()).toEqual(['personas.json.lock']);
  });

  it('is kept from a live holder in the earlier bare-PID format too', async () => {
    await fs.writeFile(lockFile, `${liveProcess()}\n`);
    await age(lockFile, 60_000);
    await expect(acquireLock(file, { timeoutMs: 200, foreignStaleMs: FOREIGN_LOCK_STALE_MS })).rejects.toBeInstanceOf(LockTimeoutError);
  });

  it('is broken at once when its holder on this host is gone', async () => {
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    await fs.writeFile(lockFile, JSON.stringify({ host: os.hostname(), pid: dead.pid, token: 'gone' }));
    const release = await acquireLock(file, { timeoutMs: 2_000, foreignStaleMs: FOREIGN_LOCK_STALE_MS });
    expect(parseLockHolder(await fs.readFile(lockFile, 'utf8'))).toMatchObject({ host: os.hostname(), pid: process.pid });
    await release();
    expect(await fs.readdir(folder)).toEqual([]);
  });

  it('from another host is broken only once older than the generous bound', async () => {
    const foreign = JSON.stringify({ host: `not-${os.hostname()}`, pid: 1, token: 'far' });
    await fs.writeFile(lockFile, foreign);
    await age(lockFile, 60_000);
    await expect(acquireLock(file, { timeoutMs: 200, foreignStaleMs: 120_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await fs.readFile(lockFile, 'utf8')).toBe(foreign);
    await age(lockFile, 180_000);
    const release = await acquireLock(file, { timeoutMs: 2_000, foreignStaleMs: 120_000 });
    await release();
    expect(lockAbandoned(parseLockHolder(foreign), 119_000, { timeoutMs: 0, foreignStaleMs: 120_000 })).toBe(false);
  });

  it('is released only while it still carries the releaser’s token', async () => {
    const release = await acquireLock(file, { timeoutMs: 2_000, foreignStaleMs: FOREIGN_LOCK_STALE_MS });
    // Someone else's lock now sits at the path (ours was broken by mistake, or by a hand): release must keep it.
    const theirs = JSON.stringify({ host: os.hostname(), pid: liveProcess(), token: 'theirs' });
    await fs.writeFile(lockFile, theirs);
    await release();
    expect(await fs.readFile(lockFile, 'utf8')).toBe(theirs);
  });
});
