/**
 * A census started by file events reads only the seats whose paths the events named: over real journals and a real
 * persona store, the other seats keep their reading (their files are not read again) for under a second, while a census
 * without a scope, or one a second later, reads every seat as before.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import type { SeatReader } from '../../sources/readers/port';
import { agentCall, assistantLine, isoAt, userLine } from '../../dev/testing/claudeJournal';
import { FleetService } from './FleetService';
import { KEEP_READING_MS } from './seatProjector';
import { IDLE_AFTER_TURN_MS } from '../../sources/readers/kit/activityBasis';

const SEATS = 4;

let dir = '';
let personas: PersonaService;
let fleet: FleetService;
let clock = 0;
const journals: string[] = [];
/** The sessions each census read, in order. */
let projected: string[] = [];

/** The reader with each projection's session noted. */
function noting(reader: SeatReader): SeatReader {
  return { ...reader, project: (seat) => (projected.push(seat.sessionId), reader.project(seat)) };
}

const sessionOf = (index: number) => `5c0be000-0000-4000-8000-${String(index).padStart(12, '0')}`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pixelfleet-scoped-'));
  const folder = join(dir, 'claude', 'projects', '-work-demo');
  await mkdir(folder, { recursive: true });
  personas = new PersonaService({ file: join(dir, 'personas.json') });
  journals.length = 0;
  for (let index = 0; index < SEATS; index++) {
    const sessionId = sessionOf(index);
    const path = join(folder, `${sessionId}.jsonl`);
    const context = { sessionId, at: isoAt(index) };
    await writeFile(path, `${userLine(context, 'Fix the parser.')}\n${assistantLine(context, `msg_${index}`, [agentCall(`toolu_${index}_a`, 'Survey the code')])}\n`);
    journals.push(path);
    await personas.hire({ name: `Seat ${index}`, seat: { harness: 'claude', home: join(dir, 'claude'), sessionId, cwd: '/work/demo', path } });
  }
  clock = Date.parse(isoAt(10));
  fleet = new FleetService({ personas, readers: { claude: noting(createClaudeReader({ home: join(dir, 'claude') })) }, now: () => clock });
  projected = [];
});

afterEach(async () => {
  fleet.dispose();
  personas.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function appendAgent(index: number, callId: string): Promise<void> {
  const context = { sessionId: sessionOf(index), at: isoAt(20) };
  await appendFile(journals[index], `${assistantLine(context, `msg_${callId}`, [agentCall(callId, 'Check the tests')])}\n`);
}

describe('a census scoped to the paths file events named', () => {
  it('reads only the seat whose journal changed, and shows its change', async () => {
    const first = await fleet.read({ fresh: true });
    expect(projected.sort()).toEqual([0, 1, 2, 3].map(sessionOf));
    projected = [];
    await appendAgent(2, 'toolu_2_b');

    const next = await fleet.refresh({ changed: new Set([journals[2]]) });
    expect(projected).toEqual([sessionOf(2)]);
    expect(next.cursor).toBe(first.cursor + 1);
    const index = next.seats.findIndex((seat) => seat.address.sessionId === sessionOf(2));
    expect(next.seats[index].subagents?.recent).toHaveLength(2);
    next.seats.forEach((seat, position) => (position === index ? expect(seat).not.toBe(first.seats[position]) : expect(seat).toBe(first.seats[position])));
  });

  it('reads no seat when the events named none of their paths, and every seat once the readings are a second old', async () => {
    await fleet.read({ fresh: true });
    projected = [];
    // A change no event named is not read within the second (a seat's unwatched file)...
    await appendAgent(1, 'toolu_1_b');
    const quiet = await fleet.refresh({ changed: new Set([join(dir, 'elsewhere.jsonl')]) });
    expect(projected).toEqual([]);
    expect(quiet.seats.find((seat) => seat.address.sessionId === sessionOf(1))?.subagents?.recent).toHaveLength(1);
    // ...and is read once the reading is a second old.
    clock += KEEP_READING_MS;
    const later = await fleet.refresh({ changed: new Set() });
    expect(projected.sort()).toEqual([0, 1, 2, 3].map(sessionOf));
    expect(later.seats.find((seat) => seat.address.sessionId === sessionOf(1))?.subagents?.recent).toHaveLength(2);
  });

  it('reads every seat without a scope (the safety poll, a read by a request)', async () => {
    await fleet.read({ fresh: true });
    projected = [];
    await fleet.refresh();
    expect(projected.sort()).toEqual([0, 1, 2, 3].map(sessionOf));
    projected = [];
    await fleet.read({ fresh: true });
    expect(projected.sort()).toEqual([0, 1, 2, 3].map(sessionOf));
  });

  it('evaluates a kept seat’s time rules at the census’s time, without reading it', async () => {
    // Seat 0's turn ends (rule: turn-done turns idle IDLE_AFTER_TURN_MS after it); the first census is just before that.
    const endedAt = Date.parse(isoAt(30));
    await appendFile(journals[0], `${JSON.stringify({ type: 'assistant', sessionId: sessionOf(0), timestamp: isoAt(30), uuid: 'a-end', message: { id: 'msg_end', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'All set.' }] } })}\n`);
    clock = endedAt + IDLE_AFTER_TURN_MS - 1;
    const first = await fleet.read({ fresh: true });
    expect(first.seats.find((seat) => seat.address.sessionId === sessionOf(0))?.activity).toMatchObject({ state: 'needs-you', why: 'turn-done' });
    projected = [];
    clock += 1;
    const next = await fleet.refresh({ changed: new Set() });
    expect(projected).toEqual([]);
    expect(next.seats.find((seat) => seat.address.sessionId === sessionOf(0))?.activity.state).toBe('idle');
  });
});
