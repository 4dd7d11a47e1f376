import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PersonaService } from './PersonaService';
import { decodeStore, encodeStore } from './storeSchema';
import { collect, ready, startWriter as startWriterScript } from '../../dev/testing/writerProcess';

const writerScript = path.resolve(process.cwd(), 'main/dev/testing/concurrentWriter.ts');

const startWriter = (args: string[]): ChildProcess => startWriterScript(writerScript, args);

let folder: string;
let file: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-personas-'));
  file = path.join(folder, 'personas.json');
});

afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe('two processes writing the same store', () => {
  it('loses no hire and no role change', async () => {
    const count = 15;
    const first = startWriter([file, 'left', String(count)]);
    const second = startWriter([file, 'right', String(count)]);
    const results = Promise.all([collect(first), collect(second)]);
    await Promise.all([ready(first), ready(second)]);
    first.stdin?.write('go\n');
    second.stdin?.write('go\n');
    const [left, right] = await results;
    expect(left.stderr).toBe('');
    expect(right.stderr).toBe('');
    expect([left.code, right.code]).toEqual([0, 0]);

    const decoded = decodeStore(await fs.readFile(file, 'utf8'));
    if (decoded.kind !== 'ok') throw new Error(`store unreadable: ${decoded.kind}`);
    // Every hire and every role change is one committed write: none was overwritten by the other process.
    expect(decoded.store.revision).toBe(4 * count);
    const roles = new Map(decoded.store.personas.map((persona) => [persona.name, persona.role]));
    expect(roles.size).toBe(2 * count);
    for (const tag of ['left', 'right']) {
      for (let index = 0; index < count; index += 1) expect(roles.get(`${tag}-${index}`)).toBe(`${tag} role ${index}`);
    }
    const leftovers = (await fs.readdir(folder)).filter((name) => name !== 'personas.json');
    expect(leftovers).toEqual([]);
  }, 120_000);
});

/** Stops `child` at a moment it holds the store's lock (its PID is in the lock file before and after the stop). */
async function stopWhileHolding(child: ChildProcess, lockFile: string): Promise<void> {
  const holds = async () => {
    const text = await fs.readFile(lockFile, 'utf8').catch(() => '');
    return Number(/\d+/.exec(text)?.[0]) === child.pid;
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error('the writer finished before it was caught holding the lock');
    if (await holds()) {
      child.kill('SIGSTOP');
      if (await holds()) return;
      child.kill('SIGCONT');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a writer stalled while it holds the lock', () => {
  it('keeps the lock through a 7 s SIGSTOP, and neither writer loses an update', async () => {
    const count = 30;
    const stalled = startWriter([file, 'left', String(count)]);
    const other = startWriter([file, 'right', String(count)]);
    try {
      const results = Promise.all([collect(stalled), collect(other)]);
      await Promise.all([ready(stalled), ready(other)]);
      stalled.stdin?.write('go\n');
      await stopWhileHolding(stalled, `${file}.lock`);
      const lockText = await fs.readFile(`${file}.lock`, 'utf8');
      const frozen = await fs.readFile(file, 'utf8').catch(() => '(none)');
      other.stdin?.write('go\n');
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      // The paused holder is alive: its lock stands and the other writer has written nothing meanwhile.
      expect(await fs.readFile(`${file}.lock`, 'utf8')).toBe(lockText);
      expect(await fs.readFile(file, 'utf8').catch(() => '(none)')).toBe(frozen);
      stalled.kill('SIGCONT');
      const [left, right] = await results;
      expect([left.stderr, right.stderr]).toEqual(['', '']);
      expect([left.code, right.code]).toEqual([0, 0]);
      const decoded = decodeStore(await fs.readFile(file, 'utf8'));
      if (decoded.kind !== 'ok') throw new Error(`store unreadable: ${decoded.kind}`);
      expect(decoded.store.revision).toBe(4 * count);
      const roles = new Map(decoded.store.personas.map((persona) => [persona.name, persona.role]));
      for (const tag of ['left', 'right']) {
        for (let index = 0; index < count; index += 1) expect(roles.get(`${tag}-${index}`)).toBe(`${tag} role ${index}`);
      }
      expect((await fs.readdir(folder)).filter((name) => name !== 'personas.json')).toEqual([]);
    } finally {
      stalled.kill('SIGCONT');
      stalled.kill('SIGKILL');
      other.kill('SIGKILL');
    }
  }, 120_000);
});

describe('a writer that dies between write and rename', () => {
  it('leaves the old content intact and its temp file is cleaned on the next load', async () => {
    const service = new PersonaService({ file });
    const ada = await service.hire({ name: 'Ada', role: 'builder' });
    const before = await fs.readFile(file, 'utf8');
    service.dispose();

    const decoded = decodeStore(before);
    if (decoded.kind !== 'ok') throw new Error('unexpected');
    const changed = encodeStore({ ...decoded.store, revision: 2, personas: [{ ...ada, role: 'tester' }] });
    const crash = await collect(startWriter([file, 'crash', changed]));
    expect(crash.signal).toBe('SIGKILL');
    const temps = (await fs.readdir(folder)).filter((name) => name.startsWith('personas.json.tmp-'));
    expect(temps).toHaveLength(1);
    expect(await fs.readFile(path.join(folder, temps[0]), 'utf8')).toBe(changed);

    const reopened = new PersonaService({ file });
    expect((await reopened.list()).map((persona) => persona.role)).toEqual(['builder']);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect((await fs.readdir(folder)).filter((name) => name.startsWith('personas.json.tmp-'))).toEqual([]);
    reopened.dispose();
  }, 60_000);
});
