import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeAliasFile } from './aliasRules';
import { HistoryService } from './HistoryService';
import { activity, job, persona, seat } from './testing/records';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const folders: string[] = [];
const services: HistoryService[] = [];
afterEach(() => {
  while (services.length) services.pop()!.dispose();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pf-history-'));
  folders.push(dir);
  return dir;
}

async function open(dir: string, options: Partial<Parameters<typeof HistoryService.open>[0]> & { clock: { now: number } }): Promise<{ service: HistoryService; logs: string[] }> {
  const logs: string[] = [];
  const service = await HistoryService.open({ file: join(dir, 'history.sqlite'), aliasFile: join(dir, 'job-aliases.json'), record: true, now: () => options.clock.now, log: (line) => logs.push(line), ...options });
  services.push(service);
  return { service, logs };
}

/** A day of one seat changing every minute. */
function recordMinutes(service: HistoryService, clock: { now: number }, from: number, minutes: number): void {
  service.onEvent('fleet.changed', { snapshot: { cursor: 1, seats: [seat('claude:a', 'p1', activity('working', iso(from)))], personas: [persona('p1', 'Ada', 'builder')], stations: [] } });
  for (let minute = 1; minute <= minutes; minute += 1) {
    clock.now = from + minute * 60_000;
    const state = minute % 2 ? activity('needs-you', iso(clock.now), 'question', 'AskUserQuestion') : activity('working', iso(clock.now), undefined, `Read · file-${minute}.ts`);
    service.onEvent('fleet.patched', { patch: { from: minute, cursor: minute + 1, seats: { set: [seat('claude:a', 'p1', state)] } } });
  }
}

describe('history service', () => {
  it('retention: rows older than history.days go, and a seek to the new start is still exact', async () => {
    const dir = home();
    const clock = { now: T0 };
    const { service } = await open(dir, { clock, settings: { days: 1, awayMinutes: 10 } });
    recordMinutes(service, clock, T0, 3 * 24 * 60);
    service.prune();
    const span = service.span(24);
    expect(Date.parse(span.from!)).toBe(clock.now - DAY);
    const moment = service.at(iso(clock.now - DAY + 90_000));
    expect(moment.exact).toBe(true);
    expect(moment.snapshot.seats[0].activity.state).toMatch(/working|needs-you/);
    expect(moment.snapshot.personas[0]).toMatchObject({ name: 'Ada', role: 'builder' });
  });

  it('the size cap drops the oldest rows first until the store is under it', async () => {
    const dir = home();
    const clock = { now: T0 };
    const cap = 256 * 1024;
    const { service } = await open(dir, { clock, capBytes: cap });
    recordMinutes(service, clock, T0, 2 * 24 * 60);
    const before = Date.parse(service.span().from!);
    service.prune();
    const after = Date.parse(service.span().from!);
    expect(after).toBeGreaterThan(before);
    // The newest rows are kept: the last minute is still there.
    expect(service.at(iso(clock.now)).snapshot.seats[0].activity.label).toBe('Read · file-2880.ts');
    const digest = service.digest(iso(clock.now - 5 * 60_000));
    expect(digest.entries.length).toBeGreaterThan(0);
    const file = join(dir, 'history.sqlite');
    service.dispose();
    services.pop();
    // The file itself shrank to about the cap (free pages handed back).
    const { size } = await import('node:fs').then((fs) => fs.statSync(file));
    expect(size).toBeLessThanOrEqual(cap * 1.5);
  });

  it('the span: jobs started, ended and running per bucket, needs-you spans (still open last) and seats waiting per bucket', async () => {
    const dir = home();
    const clock = { now: T0 };
    const { service } = await open(dir, { clock });
    const board = (jobs: ReturnType<typeof job>[]) => service.onEvent('jobs.changed', { board: { jobs, aliases: {}, unlisted: [], at: iso(clock.now) } });
    service.onEvent('fleet.changed', { snapshot: { cursor: 1, seats: [seat('claude:a', 'p1', activity('working', iso(T0)))], personas: [persona('p1', 'Ada')], stations: [] } });
    clock.now = T0 + 10 * 60_000;
    service.onEvent('fleet.patched', { patch: { from: 1, cursor: 2, seats: { set: [seat('claude:a', 'p1', activity('needs-you', iso(clock.now), 'question'))] } } });
    board([job('claude:a', 'p1', 'n1', iso(clock.now)), job('claude:a', 'p1', 'n2', iso(clock.now))]);
    clock.now = T0 + 30 * 60_000;
    service.onEvent('fleet.patched', { patch: { from: 2, cursor: 3, seats: { set: [seat('claude:a', 'p1', activity('working', iso(clock.now)))] } } });
    board([job('claude:a', 'p1', 'n1', iso(T0 + 10 * 60_000), { at: iso(clock.now), outcome: 'completed' }), job('claude:a', 'p1', 'n2', iso(T0 + 10 * 60_000))]);
    clock.now = T0 + 50 * 60_000;
    service.onEvent('fleet.patched', { patch: { from: 3, cursor: 4, seats: { set: [seat('claude:a', 'p1', activity('needs-you', iso(clock.now), 'approval'))] } } });
    clock.now = T0 + 60 * 60_000;
    const span = service.span(6);
    expect(span).toMatchObject({ recording: true, from: iso(T0), to: iso(clock.now), bucketMs: 600_000, awayMs: 600_000, days: 7 });
    expect(span.buckets.map((bucket) => [bucket.started, bucket.ended, bucket.running, bucket.needsYou])).toEqual([
      [0, 0, 0, 0],
      [2, 0, 2, 1],
      [0, 0, 2, 1],
      [0, 1, 1, 1],
      [0, 0, 1, 0],
      [0, 0, 1, 1],
    ]);
    expect(span.needsYou).toEqual([
      { seatId: 'claude:a', personaId: 'p1', why: 'question', certain: true, from: iso(T0 + 10 * 60_000), to: iso(T0 + 30 * 60_000) },
      { seatId: 'claude:a', personaId: 'p1', why: 'approval', certain: true, from: iso(T0 + 50 * 60_000), to: null },
    ]);
  });

  it('history.days 0 records nothing and says why', async () => {
    const dir = home();
    const clock = { now: T0 };
    const { service } = await open(dir, { clock, settings: { days: 0, awayMinutes: 10 } });
    recordMinutes(service, clock, T0, 10);
    const span = service.span();
    expect(span).toMatchObject({ recording: false, from: null });
    expect(span.reason).toMatch(/history\.days is 0/);
  });

  it('moves job-aliases.json in once: issued aliases kept, counters continue, the file renamed, no alias reused', async () => {
    const dir = home();
    const clock = { now: T0 };
    writeFileSync(join(dir, 'job-aliases.json'), encodeAliasFile({ schemaVersion: 1, revision: 3, counters: { explore: 7, plan: 2 }, aliases: [['claude:a|n1', 'explore-6'], ['claude:a|n2', 'explore-7']] }));
    const first = await open(dir, { clock });
    expect(existsSync(join(dir, 'job-aliases.json'))).toBe(false);
    expect(existsSync(join(dir, 'job-aliases.json.moved'))).toBe(true);
    const aliases = await first.service.aliases.aliasesFor([
      { key: 'claude:a|n2', type: 'Explore' },
      { key: 'claude:a|n3', type: 'Explore' },
      { key: 'claude:a|n4', type: 'Plan' },
    ]);
    expect(Object.fromEntries(aliases)).toEqual({ 'claude:a|n2': 'explore-7', 'claude:a|n3': 'explore-8', 'claude:a|n4': 'plan-3' });
    first.service.dispose();
    services.pop();
    // A new file appearing later is not moved again, and the store's aliases hold across restarts.
    writeFileSync(join(dir, 'job-aliases.json'), encodeAliasFile({ schemaVersion: 1, revision: 1, counters: { explore: 1 }, aliases: [['claude:z|n9', 'explore-1']] }));
    const second = await open(dir, { clock });
    expect(existsSync(join(dir, 'job-aliases.json'))).toBe(true);
    const again = await second.service.aliases.aliasesFor([{ key: 'claude:a|n3', type: 'Explore' }, { key: 'claude:b|n5', type: 'Explore' }]);
    expect(Object.fromEntries(again)).toEqual({ 'claude:a|n3': 'explore-8', 'claude:b|n5': 'explore-9' });
  });

  it('an unreadable alias file gives its counters to the store, so no alias is issued twice', async () => {
    const dir = home();
    const clock = { now: T0 };
    writeFileSync(join(dir, 'job-aliases.json'), '{"schemaVersion": 1, "counters": {"explore": 4}, "aliases": [["k", "explore-4"');
    const { service } = await open(dir, { clock });
    expect(service.notices().map((notice) => notice.id)).toContain('history-aliases');
    const aliases = await service.aliases.aliasesFor([{ key: 'claude:a|new', type: 'Explore' }]);
    expect(aliases.get('claude:a|new')).toBe('explore-5');
    expect(readFileSync(join(dir, 'job-aliases.json.moved'), 'utf8')).toContain('explore-4');
  });

  it('a full disk stops recording with one notice and one log line; reads and aliases keep answering', async () => {
    const dir = home();
    const clock = { now: T0 };
    const { service, logs } = await open(dir, { clock });
    recordMinutes(service, clock, T0, 5);
    // SQLite's own bound on the file's pages: past it every write fails with SQLITE_FULL, as on a full disk.
    const store = (service as unknown as { store: { database: { exec(sql: string): void; pragma(name: string): unknown } } }).store;
    store.database.exec(`PRAGMA max_page_count = ${Number(store.database.pragma('page_count'))}`);
    expect(() => recordMinutes(service, clock, clock.now, 400)).not.toThrow();
    expect(service.recording).toBe(false);
    expect(service.notices().filter((notice) => notice.id === 'history-stopped')).toHaveLength(1);
    expect(service.notices()[0].message).toMatch(/full/);
    expect(logs.filter((line) => line.includes('history stopped'))).toHaveLength(1);
    expect(service.span().recording).toBe(false);
    expect(service.at(iso(T0 + 3 * 60_000)).snapshot.seats).toHaveLength(1);
  });

  it('a home that cannot hold the store: recording off with one notice, every read answers empty', async () => {
    const dir = home();
    const clock = { now: T0 };
    // A folder where the store file should be: SQLite cannot open it, whoever runs the test.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'history.sqlite'));
    const { service, logs } = await open(dir, { clock });
    expect(service.recording).toBe(false);
    expect(service.notices().map((notice) => notice.id)).toEqual(['history-stopped']);
    expect(logs).toHaveLength(1);
    expect(service.span()).toMatchObject({ recording: false, buckets: [], needsYou: [] });
    expect(service.digest(iso(T0 - 3_600_000)).entries).toEqual([]);
    await expect(service.aliases.aliasesFor([{ key: 'k', type: null }])).rejects.toThrow(/cannot be written/);
  });
});
