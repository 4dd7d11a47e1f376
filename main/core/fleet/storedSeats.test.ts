// Stored seats go through seat confinement too: a seat in the store (edited by hand, or left from a home that moved)
// is read only at the address its session resolves to under the configured homes. One that does not resolve shows as
// unknown with the reason and is never opened: its planted path is a FIFO, which would hang any reader that opened it,
// and every address the readers and the watcher are handed is recorded.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import { main } from '../../edges/cli';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import type { SeatReader } from '../../sources/readers/port';
import { createTeamsPort } from '../../sources/teams';
import { agentCall, assistantLine, isoAt, textBlock } from '../../dev/testing/claudeJournal';
import { FleetService } from './FleetService';

let root: string;
let claudeHome: string;
let journal: string;
let fifo: string;
let personas: PersonaService;

/** The real Claude reader, recording every address it is handed. */
function recordingReader(home: string): { reader: SeatReader; handed: SeatAddress[] } {
  const inner = createClaudeReader({ home });
  const handed: SeatAddress[] = [];
  const reader: SeatReader = {
    harness: 'claude',
    discover: (options) => inner.discover(options),
    resolve: (sessionId) => inner.resolve(sessionId),
    project: (seat) => (handed.push(seat), inner.project(seat)),
    replay: (seat, id, cursor) => (handed.push(seat), inner.replay(seat, id, cursor)),
    watchPaths: (seat) => (handed.push(seat), inner.watchPaths(seat)),
    forget: (seat) => inner.forget(seat),
    dispose: () => inner.dispose(),
  };
  return { reader, handed };
}

/** Rewrites the store file as an owner with an editor would: the same JSON with one persona's seat replaced. */
async function editStoredSeat(file: string, name: string, seat: SeatAddress): Promise<void> {
  const store = JSON.parse(await readFile(file, 'utf8')) as { personas: Array<{ name: string; seat?: SeatAddress }> };
  store.personas.find((persona) => persona.name === name)!.seat = seat;
  await writeFile(file, JSON.stringify(store, null, 2));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pixelfleet-stored-seats-'));
  claudeHome = join(root, 'claude');
  await mkdir(join(claudeHome, 'projects', '-work-app'), { recursive: true });
  journal = join(claudeHome, 'projects', '-work-app', 's-real.jsonl');
  await writeFile(journal, `${assistantLine({ sessionId: 's-real', at: isoAt(0) }, 'm1', [agentCall('toolu_1', 'Survey the code')])}\n`);
  fifo = join(root, 'planted.jsonl');
  execFileSync('mkfifo', [fifo]);
  personas = new PersonaService({ file: join(root, 'app', 'personas.json') });
  await personas.hire({ name: 'Ada', seat: { harness: 'claude', home: claudeHome, sessionId: 's-real', cwd: null, path: journal } });
  await personas.hire({ name: 'Mallory' });
});
afterEach(async () => {
  personas.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('stored seats under seat confinement', () => {
  it('shows a planted seat as unknown with the reason, and never hands its path or home to a reader or the watcher', async () => {
    await editStoredSeat(join(root, 'app', 'personas.json'), 'Mallory', { harness: 'claude', home: root, sessionId: 'planted', cwd: '/', path: fifo });
    const { reader, handed } = recordingReader(claudeHome);
    const fleet = new FleetService({ personas, readers: { claude: reader }, teams: createTeamsPort() });
    const snapshot = await fleet.read({ fresh: true });
    const mallory = snapshot.personas.find((persona) => persona.name === 'Mallory')!;
    const seat = snapshot.seats.find((entry) => entry.personaId === mallory.id)!;
    expect(seat.subagents).toBeUndefined();
    expect(seat.activity.state).toBe('unknown');
    expect(seat.unknownReason).toMatch(/no longer resolves, so it is not read: No session claude:planted is found under the configured harness homes/);
    expect(await fleet.replay(seat.id, 'toolu_1')).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/no longer resolves/) });
    const watched = await fleet.watchPaths();
    expect(watched).not.toContain(fifo);
    expect(watched.some((path) => path.startsWith(join(root, 'teams')))).toBe(false);
    expect(handed.some((address) => address.path === fifo || address.home === root)).toBe(false);
    // The seat beside it is read as usual.
    expect(snapshot.seats.find((entry) => entry.id === 'claude:s-real')?.subagents?.running).toBe(1);
  });

  it('reads a known session at its resolved address, never at a path edited into the store', async () => {
    await editStoredSeat(join(root, 'app', 'personas.json'), 'Ada', { harness: 'claude', home: '/etc', sessionId: 's-real', cwd: '/', path: fifo });
    const { reader, handed } = recordingReader(claudeHome);
    const fleet = new FleetService({ personas, readers: { claude: reader } });
    const seat = (await fleet.read({ fresh: true })).seats.find((entry) => entry.id === 'claude:s-real')!;
    expect(seat.subagents?.running).toBe(1);
    expect(seat.address).toEqual({ harness: 'claude', home: claudeHome, sessionId: 's-real', cwd: '/work/demo', path: journal });
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.every((address) => address.path === journal && address.home === claudeHome)).toBe(true);
    expect(await fleet.watchPaths()).toEqual([journal]);
  });

  it('shows a seat whose home moved away as unknown, and finds it again when the configured home holds it', async () => {
    const moved = { harness: 'claude' as const, home: join(root, 'old-claude'), sessionId: 's-gone', cwd: null, path: join(root, 'old-claude', 'projects', '-work-app', 's-gone.jsonl') };
    await editStoredSeat(join(root, 'app', 'personas.json'), 'Mallory', moved);
    const { reader, handed } = recordingReader(claudeHome);
    const fleet = new FleetService({ personas, readers: { claude: reader } });
    const first = (await fleet.read({ fresh: true })).seats.find((entry) => entry.id === 'claude:s-gone')!;
    expect(first.unknownReason).toMatch(/No session claude:s-gone is found under the configured harness homes/);
    expect(handed.some((address) => address.sessionId === 's-gone')).toBe(false);

    // The session now lives under the configured home: a new fleet (the app restarted) reads it there.
    await writeFile(join(claudeHome, 'projects', '-work-app', 's-gone.jsonl'), `${assistantLine({ sessionId: 's-gone', at: isoAt(1) }, 'm1', [textBlock('back')])}\n`);
    const again = new FleetService({ personas, readers: { claude: recordingReader(claudeHome).reader } });
    const seat = (await again.read({ fresh: true })).seats.find((entry) => entry.id === 'claude:s-gone')!;
    expect(seat.unknownReason).toBeUndefined();
    expect(seat.address.home).toBe(claudeHome);
  });

  it('resolves a session older than the lobby lists (no 200-newest cap) for a hire and for the census', async () => {
    const folder = join(claudeHome, 'projects', '-work-many');
    await mkdir(folder, { recursive: true });
    for (let index = 0; index < 205; index++) await writeFile(join(folder, `s-new-${index}.jsonl`), '\n');
    const old = join(folder, 's-old.jsonl');
    await writeFile(old, `${assistantLine({ sessionId: 's-old', at: isoAt(0) }, 'm1', [textBlock('old')])}\n`);
    await utimes(old, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: claudeHome }) } });
    expect((await fleet.candidates({ refresh: true })).some((entry) => entry.id === 'claude:s-old')).toBe(false);
    expect(await fleet.resolveSession('claude', 's-old')).toEqual({ ok: true, seat: { harness: 'claude', home: claudeHome, sessionId: 's-old', cwd: '/work/demo', path: old } });
    const opened = await fleet.openSeat({ candidateId: 'claude:s-old' });
    expect(opened.seat.unknownReason).toBeUndefined();
    expect(opened.seat.address.path).toBe(old);
  });

  it('prints the unknown seat and its reason in `fleet --json`', async () => {
    await editStoredSeat(join(root, 'app', 'personas.json'), 'Mallory', { harness: 'claude', home: root, sessionId: 'planted', cwd: '/', path: fifo });
    let stdout = '';
    const env = { HOME: root, PIXELFLEET_HOME: join(root, 'app'), CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: join(root, 'codex'), XDG_DATA_HOME: join(root, 'data'), OPENCODE_DB: '' };
    const code = await main(['fleet', '--json'], { stdout: (text) => (stdout += text), stderr: () => {}, env });
    expect(code).toBe(0);
    const snapshot = JSON.parse(stdout) as { seats: Array<{ id: string; activity: { state: string }; subagents?: unknown; unknownReason?: string }> };
    const planted = snapshot.seats.find((seat) => seat.id === 'claude:planted')!;
    expect(planted).toMatchObject({ activity: { state: 'unknown' }, unknownReason: expect.stringMatching(/no longer resolves, so it is not read/) });
    expect(planted.subagents).toBeUndefined();
    expect(snapshot.seats.find((seat) => seat.id === 'claude:s-real')?.subagents).toBeDefined();
  });
});
