/**
 * The census does no work for unchanged seats: over real journals and a real persona store, a census after nothing
 * changed reads 0 bytes, serialises nothing (no JSON digest) and keeps every seat's object; a change to one seat
 * moves the cursor and replaces only that seat.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import type { Projection, SeatReader } from '../../sources/readers/port';
import { agentCall, assistantLine, isoAt, userLine } from '../../dev/testing/claudeJournal';
import { FleetService } from './FleetService';

const SEATS = 16;

/** Adds up the bytes the reader's projections read. */
function countingBytes(reader: SeatReader): { reader: SeatReader; bytes: () => number } {
  let bytes = 0;
  return {
    reader: {
      harness: reader.harness,
      discover: (options) => reader.discover(options),
      resolve: (sessionId) => reader.resolve(sessionId),
      replay: (seat, id, cursor) => reader.replay(seat, id, cursor),
      watchPaths: (seat) => reader.watchPaths(seat),
      forget: (seat) => reader.forget(seat),
      dispose: () => reader.dispose(),
      async project(seat): Promise<Projection> {
        const projection = await reader.project(seat);
        if (projection.ok) bytes += projection.read.bytes;
        return projection;
      },
    },
    bytes: () => bytes,
  };
}

let dir = '';
let personas: PersonaService;
let fleet: FleetService;
let counted: ReturnType<typeof countingBytes>;
const journals: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pixelfleet-census-'));
  const folder = join(dir, 'claude', 'projects', '-work-demo');
  await mkdir(folder, { recursive: true });
  personas = new PersonaService({ file: join(dir, 'personas.json') });
  journals.length = 0;
  for (let index = 0; index < SEATS; index++) {
    const sessionId = `c0ffee00-0000-4000-8000-${String(index).padStart(12, '0')}`;
    const path = join(folder, `${sessionId}.jsonl`);
    const context = { sessionId, at: isoAt(index) };
    await writeFile(path, `${userLine(context, 'Fix the parser.')}\n${assistantLine(context, `msg_${index}`, [agentCall(`toolu_${index}_a`, 'Survey the code')])}\n`);
    journals.push(path);
    await personas.hire({ name: `Seat ${index}`, role: index % 2 ? 'builder' : 'tester', seat: { harness: 'claude', home: join(dir, 'claude'), sessionId, cwd: '/work/demo', path } });
  }
  counted = countingBytes(createClaudeReader({ home: join(dir, 'claude') }));
  fleet = new FleetService({ personas, readers: { claude: counted.reader } });
});

afterEach(async () => {
  vi.restoreAllMocks();
  personas.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('a census of unchanged seats', () => {
  it('reads 0 bytes, makes no JSON digest, keeps every seat object and tells no listener', async () => {
    const first = await fleet.read({ fresh: true });
    expect(first.seats).toHaveLength(SEATS);
    expect(first.seats.every((seat) => seat.subagents?.running === 1)).toBe(true);
    const bytesAfterFirst = counted.bytes();
    expect(bytesAfterFirst).toBeGreaterThan(0);
    const heard: FleetSnapshot[] = [];
    fleet.onChange((snapshot) => heard.push(snapshot));

    const stringify = vi.spyOn(JSON, 'stringify');
    const again = await fleet.read({ fresh: true });
    const third = await fleet.read({ fresh: true });

    expect(counted.bytes() - bytesAfterFirst).toBe(0);
    expect(stringify).not.toHaveBeenCalled();
    expect(again.cursor).toBe(first.cursor);
    expect(third.cursor).toBe(first.cursor);
    for (let index = 0; index < SEATS; index++) expect(third.seats[index]).toBe(first.seats[index]);
    expect(heard).toHaveLength(0);
  });

  it('moves the cursor when one seat changes and replaces only that seat', async () => {
    const first = await fleet.read({ fresh: true });
    const heard: FleetSnapshot[] = [];
    fleet.onChange((snapshot) => heard.push(snapshot));
    const changed = journals[3];
    const context = { sessionId: first.seats[3].address.sessionId, at: isoAt(100) };
    await appendFile(changed, `${assistantLine(context, 'msg_more', [agentCall('toolu_3_b', 'Check the tests')])}\n`);

    const next = await fleet.read({ fresh: true });
    expect(next.cursor).toBe(first.cursor + 1);
    expect(heard.map((snapshot) => snapshot.cursor)).toEqual([next.cursor]);
    const index = next.seats.findIndex((seat) => seat.address.path === changed);
    expect(next.seats[index].subagents?.recent).toHaveLength(2);
    next.seats.forEach((seat, position) => (position === index ? expect(seat).not.toBe(first.seats[position]) : expect(seat).toBe(first.seats[position])));
  });

  it('moves the cursor when a persona changes though no journal did', async () => {
    const first = await fleet.read({ fresh: true });
    await personas.setRole(first.personas[0].id, 'reviewer');
    const next = await fleet.read({ fresh: true });
    expect(next.cursor).toBe(first.cursor + 1);
    expect(next.stations.some((station) => station.role === 'reviewer')).toBe(true);
  });
});
