// Job aliases never repeat even when history.sqlite is damaged (issue 36): the high-water mark beside the store
// survives, and a fresh store's counters start past it. Real SQLite files, really damaged.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryService } from './HistoryService';
import { ALIAS_MARK_FILE, readAliasMark } from './aliasMark';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(dir: string, logs: string[] = []) {
  return HistoryService.open({ file: join(dir, 'history.sqlite'), record: false, log: (line) => logs.push(line) });
}

describe('job alias high-water mark', () => {
  it('a damaged history.sqlite is moved aside, and the next alias continues past the last one issued', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-alias-mark-'));
    dirs.push(dir);
    const first = await open(dir);
    const issued = await first.aliases.aliasesFor([{ key: 'claude:a|n1', type: 'Explore' }, { key: 'claude:a|n2', type: 'Explore' }]);
    expect([...issued.values()]).toEqual(['explore-1', 'explore-2']);
    first.dispose();
    expect(readAliasMark(join(dir, ALIAS_MARK_FILE))).toMatchObject({ explore: 2 });
    writeFileSync(join(dir, 'history.sqlite'), 'this is not a database, it was damaged'.repeat(200));
    const logs: string[] = [];
    const second = await open(dir, logs);
    expect(logs.join('\n')).toContain('moved aside');
    const next = await second.aliases.aliasesFor([{ key: 'claude:b|n1', type: 'Explore' }]);
    expect(next.get('claude:b|n1')).toBe('explore-3');
    second.dispose();
  });

  it('a damaged mark file still gives the numbers it shows; prototype keys are plain types', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-alias-mark-'));
    dirs.push(dir);
    const file = join(dir, ALIAS_MARK_FILE);
    writeFileSync(file, '{"version":1,"counters":{"explore":9,"plan":');
    expect(readAliasMark(file)).toMatchObject({ explore: 9 });
    writeFileSync(file, '{"version":1,"counters":{"__proto__":4,"constructor":3}}');
    const mark = readAliasMark(file);
    expect(mark.constructor).toBe(3);
    expect(Object.keys(mark).sort()).toEqual(['__proto__', 'constructor']);
    expect(readFileSync(file, 'utf8')).toContain('__proto__');
  });

  it('a batch of aliases issued one by one writes the mark once, at its end, holding the last of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-alias-mark-'));
    dirs.push(dir);
    const history = await open(dir);
    const file = join(dir, ALIAS_MARK_FILE);
    await history.aliases.aliasesFor([{ key: 'claude:a|n0', type: 'Plan' }]);
    const marks: string[] = [];
    const issued = history.aliases.batched(() =>
      Array.from({ length: 50 }, (_, index) => {
        marks.push(readFileSync(file, 'utf8'));
        return history.aliases.aliasesNow([{ key: `claude:a|n${index + 1}`, type: 'Explore' }]).get(`claude:a|n${index + 1}`);
      }),
    );
    expect(issued.at(-1)).toBe('explore-50');
    // Inside the batch the file was not rewritten; after it, it holds every type's last number.
    expect(new Set(marks).size).toBe(1);
    expect(readAliasMark(file)).toEqual({ plan: 1, explore: 50 });
    history.dispose();
  });
});
