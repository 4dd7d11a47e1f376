import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AliasService } from './AliasService';
import { decodeAliasFile } from './aliasRules';
import { raceWriters } from '../../dev/testing/writerProcess';

const writerScript = path.resolve(process.cwd(), 'main/core/jobs/testing/aliasWriter.ts');
const explore = (...keys: string[]) => keys.map((key) => ({ key, type: 'Explore' }));

let folder: string;
let file: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-aliases-'));
  file = path.join(folder, 'job-aliases.json');
});

afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe('the alias store on disk', () => {
  it('is monotonic across restarts and trimming (the review scenario, with real files)', async () => {
    const first = new AliasService({ file, limit: 3 });
    expect([...(await first.aliasesFor(explore('j1', 'j2', 'j3'))).values()]).toEqual(['explore-1', 'explore-2', 'explore-3']);
    // A restart: a new process reads the file; j4 pushes j1 out of the bounded map.
    const second = new AliasService({ file, limit: 3 });
    expect((await second.aliasesFor(explore('j4'))).get('j4')).toBe('explore-4');
    const third = new AliasService({ file, limit: 3 });
    const again = await third.aliasesFor(explore('j2', 'j5'));
    expect(again.get('j2')).toBe('explore-2');
    expect(again.get('j5')).toBe('explore-5');
    const decoded = decodeAliasFile(await fs.readFile(file, 'utf8'));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    expect(decoded.file.aliases.map(([key]) => key)).toEqual(['j2', 'j4', 'j5']);
    expect(decoded.file.counters).toEqual({ explore: 5 });
    expect((await fs.readdir(folder)).sort()).toEqual(['job-aliases.json']);
  });

  it('holds no more aliases in memory than the file keeps, and reads a dropped one back unchanged', async () => {
    const service = new AliasService({ file, limit: 2 });
    await service.aliasesFor(explore('j1'));
    const j2 = (await service.aliasesFor(explore('j2'))).get('j2');
    await service.aliasesFor(explore('j1'));
    // j3 pushes j1 out of the file (issued first) and j2 out of memory (asked for longest ago).
    await service.aliasesFor(explore('j3'));
    expect(service.cached).toBe(2);
    expect((await service.aliasesFor(explore('j2'))).get('j2')).toBe(j2);
    expect(service.cached).toBe(2);
    const decoded = decodeAliasFile(await fs.readFile(file, 'utf8'));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    expect(decoded.file.aliases.map(([key]) => key)).toEqual(['j2', 'j3']);
  });

  it('moves an unreadable file aside, carries its counters over and says so', async () => {
    await fs.writeFile(file, '{"schemaVersion":1,"revision":3,"counters":{"explore":7},"aliases":[["k","explore-7"]');
    const service = new AliasService({ file, now: () => new Date('2026-01-02T03:04:05.678Z') });
    expect((await service.aliasesFor(explore('new'))).get('new')).toBe('explore-8');
    const names = await fs.readdir(folder);
    expect(names).toContain('job-aliases.json.corrupt-2026-01-02T03-04-05-678Z');
    expect(service.notices()).toHaveLength(1);
    expect(service.notices()[0].message).toMatch(/moved aside/);
  });

  it('does not write over a file from a newer version', async () => {
    const newer = '{"schemaVersion":9,"whatever":true}';
    await fs.writeFile(file, newer);
    const service = new AliasService({ file });
    expect((await service.aliasesFor(explore('x'))).size).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toBe(newer);
    expect(service.notices()[0].level).toBe('error');
  });
});

describe('two processes issuing aliases at once (the CLI and the app)', () => {
  it('never hand out the same alias twice, and agree on a subagent both saw', async () => {
    const count = 12;
    const outputs = await raceWriters(writerScript, [file, 'app', String(count)], [file, 'cli', String(count)]);
    for (const output of outputs) expect({ code: output.code, stderr: output.stderr }).toEqual({ code: 0, stderr: '' });
    const pairs = outputs.flatMap((output) => output.stdout.split('\n').filter((line) => line.startsWith('[')).map((line) => JSON.parse(line) as [string, string]));
    const byKey = new Map<string, Set<string>>();
    for (const [key, alias] of pairs) byKey.set(key, (byKey.get(key) ?? new Set()).add(alias));
    // Every key has exactly one alias, in both processes…
    expect(byKey.size).toBe(3 * count);
    for (const [key, aliases] of byKey) expect([key, aliases.size]).toEqual([key, 1]);
    // …and no alias names two keys.
    const issued = [...byKey.values()].map((aliases) => [...aliases][0]);
    expect(new Set(issued).size).toBe(3 * count);
    const decoded = decodeAliasFile(await fs.readFile(file, 'utf8'));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    expect(decoded.file.counters.explore).toBe(3 * count);
    expect((await fs.readdir(folder)).sort()).toEqual(['job-aliases.json']);
  }, 120_000);
});
