/** Census semantics with counting fakes of the reader port (the one place a fake is right), and over real journals. */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Persona, SeatAddress } from '../../../shared/schemas';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import type { Projection, SeatReader } from '../../sources/readers/port';
import { EMPTY_BASIS, type ActivityBasis } from '../../sources/readers/kit/activityBasis';
import { FleetService } from './FleetService';
import type { PersonaPort } from './ports';
import { Changes } from '../../kit/changes';

const seat: SeatAddress = { harness: 'claude', home: '/nowhere', sessionId: 's1', cwd: null, path: '/nowhere/s1.jsonl' };

function countingReader(options: { delayMs?: number; running?: () => number; activity?: ActivityBasis } = {}) {
  const counts = { project: 0 };
  const reader: SeatReader = {
    harness: 'claude',
    async discover() {
      return [];
    },
    async resolve(sessionId) {
      return { id: `claude:${sessionId}`, harness: 'claude', seat: { ...seat, sessionId }, cwdHint: null, lastActivity: '', size: 0 };
    },
    async project(): Promise<Projection> {
      counts.project += 1;
      if (options.delayMs) await new Promise((done) => setTimeout(done, options.delayMs));
      return { ok: true, subagents: { running: options.running?.() ?? 0, recent: [] }, read: { bytes: 0, skippedLines: 0 }, lastWriteMs: null, activity: options.activity ?? EMPTY_BASIS };
    },
    async replay() {
      return { status: 'unavailable', reason: 'fake' };
    },
    watchPaths: () => [],
    forget() {},
    dispose() {},
  };
  return { reader, counts };
}

function memoryPersonas(initial: Persona[]): PersonaPort & { all: Persona[] } {
  const all = [...initial];
  // Like the real store: every write is announced, and resolves once the followers (the fleet's census) are done.
  const changes = new Changes('memory personas');
  const announced = async <T>(value: T): Promise<T> => {
    await changes.emit();
    return value;
  };
  const touch = (persona: Persona, change: Partial<Persona>) => announced(Object.assign(persona, change, { updatedAt: new Date().toISOString() }));
  const find = (id: string) => all.find((persona) => persona.id === id)!;
  return {
    all,
    list: async () => all.map((persona) => ({ ...persona })),
    hire: async (input) => {
      const persona: Persona = { id: `p${all.length + 1}`, name: input.name ?? 'Nib', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role: input.role ?? undefined, seat: input.seat, createdAt: 'now', updatedAt: 'now' };
      all.push(persona);
      return announced(persona);
    },
    setRole: async (id, role) => touch(find(id), { role: role ?? undefined }),
    moveSeat: async (id, next) => touch(find(id), { seat: next ?? undefined }),
    rename: async (id, name) => touch(find(id), { name }),
    refresh: async () => false,
    onChange: (listener) => changes.on(listener),
    notices: () => [],
  };
}

const persona = (id: string, role?: string): Persona => ({ id, name: id, appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role, seat, createdAt: 'a', updatedAt: 'a' });

describe('census', () => {
  it('shares one refresh in flight between concurrent readers', async () => {
    const { reader, counts } = countingReader({ delayMs: 30 });
    const fleet = new FleetService({ personas: memoryPersonas([persona('p1')]), readers: { claude: reader } });
    const [a, b, c] = await Promise.all([fleet.read(), fleet.read(), fleet.read()]);
    expect(counts.project).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
  });

  it('reuses the last census for up to one second while the cursor is unchanged', async () => {
    let now = 1_000_000;
    const { reader, counts } = countingReader();
    const fleet = new FleetService({ personas: memoryPersonas([persona('p1')]), readers: { claude: reader }, now: () => now });
    await fleet.read();
    now += 999;
    await fleet.read();
    expect(counts.project).toBe(1);
    now += 2;
    await fleet.read();
    expect(counts.project).toBe(2);
  });

  it('forces a census that starts after a mutation, never an older one in flight', async () => {
    const { reader, counts } = countingReader({ delayMs: 40 });
    const personas = memoryPersonas([persona('p1')]);
    const fleet = new FleetService({ personas, readers: { claude: reader } });
    const older = fleet.read();
    await new Promise((done) => setTimeout(done, 5));
    // The write is announced, and the fleet follows it with a census that starts after it.
    await personas.setRole('p1', 'tester');
    const fresh = await fleet.read();
    expect(counts.project).toBe(2);
    expect(fresh.personas[0].role).toBe('tester');
    expect((await older).cursor).toBeLessThanOrEqual(fresh.cursor);
  });

  it('moves the cursor when a visible value changes and only then', async () => {
    let running = 0;
    let now = 0;
    const { reader } = countingReader({ running: () => running });
    const fleet = new FleetService({ personas: memoryPersonas([persona('p1')]), readers: { claude: reader }, now: () => (now += 5000) });
    const first = await fleet.read();
    const same = await fleet.read();
    expect(same.cursor).toBe(first.cursor);
    running = 3;
    const moved = await fleet.read();
    expect(moved.cursor).toBe(first.cursor + 1);
    expect(moved.seats[0].subagents?.running).toBe(3);
  });

  it('shows a seat without a reader as unknown, never zero', async () => {
    const codexSeat: SeatAddress = { harness: 'codex', home: '/c', sessionId: 't1' };
    const fleet = new FleetService({ personas: memoryPersonas([{ ...persona('p1'), seat: codexSeat }]), readers: {} });
    const snapshot = await fleet.read();
    expect(snapshot.seats[0].subagents).toBeUndefined();
    expect(snapshot.seats[0].activity).toEqual({ state: 'unknown', certain: false, since: null });
    expect(snapshot.seats[0].unknownReason).toMatch(/Codex/);
  });

  it('re-evaluates time-bound activity on every census without a new read, keeping since', async () => {
    const since = '2026-05-01T10:00:00.000Z';
    const start = Date.parse(since);
    const activity: ActivityBasis = {
      current: { state: 'working', certain: true, since, label: 'Bash' },
      later: { atMs: start + 10_000, activity: { state: 'needs-you', why: 'approval', certain: false, since, label: 'Bash' } },
    };
    let now = start + 1_000;
    const { reader, counts } = countingReader({ activity });
    const fleet = new FleetService({ personas: memoryPersonas([persona('p1')]), readers: { claude: reader }, now: () => now });
    const heard: string[] = [];
    fleet.onChange((snapshot) => heard.push(snapshot.seats[0].activity.state));
    expect((await fleet.refresh()).seats[0].activity).toEqual(activity.current);
    now = start + 11_000;
    const later = await fleet.refresh();
    expect(later.seats[0].activity).toEqual({ state: 'needs-you', why: 'approval', certain: false, since, label: 'Bash' });
    expect(heard).toEqual(['working', 'needs-you']);
    expect(counts.project).toBe(2);
  });

  it('tells listeners of a change whichever census finds it', async () => {
    let running = 0;
    let now = 0;
    const { reader } = countingReader({ running: () => running });
    const fleet = new FleetService({ personas: memoryPersonas([persona('p1')]), readers: { claude: reader }, now: () => (now += 5000) });
    await fleet.read();
    const seen: number[] = [];
    fleet.onChange((snapshot) => seen.push(snapshot.seats[0].subagents!.running));
    running = 2;
    await fleet.read();
    await fleet.refresh();
    expect(seen).toEqual([2]);
  });

  it('tells listeners after a mutation', async () => {
    const { reader } = countingReader();
    const personas = memoryPersonas([persona('p1')]);
    const fleet = new FleetService({ personas, readers: { claude: reader } });
    await fleet.read();
    const seen: number[] = [];
    fleet.onChange((snapshot) => seen.push(snapshot.cursor));
    await personas.setRole('p1', 'planner');
    expect(seen.length).toBe(1);
    expect(seen[0]).toBeGreaterThan(1);
  });
});

describe('census over real journals', () => {
  const homes: string[] = [];
  afterEach(async () => {
    await Promise.all(homes.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('keeps one candidate cache, its own: a new session shows once it is 3 s old, or at once on refresh', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-fleet-'));
    homes.push(dir);
    const claudeHome = join(dir, 'claude');
    const folder = join(claudeHome, 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'sess-a.jsonl'), '{}\n');
    let now = 1_000_000;
    const personas = memoryPersonas([]);
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: claudeHome }) }, now: () => now });
    const ids = async (options?: { refresh?: boolean }) => (await fleet.candidates(options)).map((candidate) => candidate.id).sort();
    expect(await ids()).toEqual(['claude:sess-a']);
    await writeFile(join(folder, 'sess-b.jsonl'), '{}\n');
    now += 2_999;
    expect(await ids()).toEqual(['claude:sess-a']);
    // The reader walks again whenever the fleet asks: no second cache holds the old list past the fleet's.
    now += 1;
    expect(await ids()).toEqual(['claude:sess-a', 'claude:sess-b']);
    await writeFile(join(folder, 'sess-c.jsonl'), '{}\n');
    expect(await ids({ refresh: true })).toEqual(['claude:sess-a', 'claude:sess-b', 'claude:sess-c']);
  });

  it('counts a running Agent call, then its end, with the cursor moving each time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-fleet-'));
    homes.push(dir);
    const claudeHome = join(dir, 'claude');
    const folder = join(claudeHome, 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    const journal = join(folder, 'sess-1.jsonl');
    const line = (value: object) => `${JSON.stringify(value)}\n`;
    await writeFile(
      journal,
      line({ type: 'user', sessionId: 'sess-1', cwd: '/work/app', timestamp: '2026-11-30T10:00:00.000Z', message: { role: 'user', content: 'go' } }) +
        line({
          type: 'assistant',
          sessionId: 'sess-1',
          timestamp: '2026-11-30T10:00:01.000Z',
          message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Agent', input: { description: 'Survey the parser', subagent_type: 'Explore', prompt: 'secret prompt text' } }] },
        }),
    );
    const personas = new PersonaService({ file: join(dir, 'home', 'personas.json') });
    await personas.hire({ name: 'Ada', role: 'builder', seat: { harness: 'claude', home: claudeHome, sessionId: 'sess-1', cwd: '/work/app', path: journal } });
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: claudeHome }) } });
    const first = await fleet.read({ fresh: true });
    expect(first.seats[0].subagents?.running).toBe(1);
    expect(first.seats[0].subagents?.recent[0]).toMatchObject({ nativeId: 'toolu_1', label: 'Survey the parser', kind: 'Explore', state: 'running' });
    expect(JSON.stringify(first)).not.toContain('secret prompt text');
    await appendFile(
      journal,
      line({ type: 'user', sessionId: 'sess-1', timestamp: '2026-11-30T10:00:09.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] } }),
    );
    const second = await fleet.read({ fresh: true });
    expect(second.seats[0].subagents?.running).toBe(0);
    expect(second.seats[0].subagents?.recent[0]).toMatchObject({ state: 'ended', outcome: 'completed', endedAt: '2026-11-30T10:00:09.000Z' });
    expect(second.cursor).toBeGreaterThan(first.cursor);
    expect(second.stations.find((station) => station.role === 'builder')?.count).toBe(1);
    personas.dispose();
  });
});
