/**
 * The fuzz property (issue 36), checked for every mutation: the hostile seat's reader returns (never throws out of
 * the fleet), every figure it gives passes the contract (the seat guard drops nothing), and a fleet holding that
 * seat beside a healthy one still delivers the healthy seat's next change through the event stream the page gets.
 */
import { FleetSnapshotSchema, type Harness, type Persona, type SeatAddress } from '../../../shared/schemas';
import { Changes } from '../../kit/changes';
import { FleetService } from '../../core/fleet/FleetService';
import type { PersonaPort } from '../../core/fleet/ports';
import { createEventStream } from '../../edges/transport/events';
import { createUpdateSender } from '../../edges/transport/updates';
import { EMPTY_BASIS } from '../../sources/readers/kit/activityBasis';
import type { Projection, SeatReader } from '../../sources/readers/port';

/** A persona store in memory holding the given seats (the fleet's port; the store itself is not under test). */
function personasHolding(seats: SeatAddress[]): PersonaPort {
  const changes = new Changes('fuzz personas');
  const list: Persona[] = seats.map((seat, index) => ({ id: `p${index}`, name: `P${index}`, appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, seat, createdAt: 'a', updatedAt: 'a' }));
  return {
    list: async () => list,
    hire: async () => list[0],
    setRole: async () => list[0],
    moveSeat: async () => list[0],
    rename: async () => list[0],
    refresh: async () => false,
    onChange: (listener) => changes.on(listener),
    notices: () => [],
  };
}

/** The healthy seat: a reader of another harness whose running count the property changes. */
function healthyReader(harness: Harness, running: () => number): SeatReader {
  const seat: SeatAddress = { harness, home: '/healthy', sessionId: 'healthy', cwd: null, path: null };
  return {
    harness,
    discover: async () => [],
    resolve: async () => ({ id: `${harness}:healthy`, harness, seat, cwdHint: null, lastActivity: '', size: 0 }),
    project: async (): Promise<Projection> => ({ ok: true, subagents: { running: running(), recent: [] }, read: { bytes: 0, skippedLines: 0 }, lastWriteMs: null, activity: EMPTY_BASIS }),
    replay: async () => ({ status: 'unavailable', reason: 'healthy' }),
    watchPaths: () => [],
    forget() {},
    dispose() {},
  };
}

/** Checks the property for one hostile seat; the failure as a sentence, or null when it holds. */
export async function fleetProperty(reader: SeatReader, hostile: SeatAddress): Promise<string | null> {
  const other: Harness = reader.harness === 'claude' ? 'codex' : 'claude';
  let running = 0;
  const logs: string[] = [];
  const fleet = new FleetService({
    personas: personasHolding([hostile, { harness: other, home: '/healthy', sessionId: 'healthy', cwd: null, path: null }]),
    readers: { [reader.harness]: reader, [other]: healthyReader(other, () => running) },
    log: (line) => logs.push(line),
    ownerHome: '/home/fuzz',
  });
  const events = createEventStream((line) => logs.push(line));
  const count: { sent: number } = { sent: 0 };
  events.onEvent(() => (count.sent += 1));
  const updates = createUpdateSender(events.emit);
  fleet.onChange((snapshot) => updates.fleet(snapshot));
  try {
    const first = await fleet.read();
    const checked = FleetSnapshotSchema.safeParse(first);
    if (!checked.success) return `the snapshot breaks the contract: ${checked.error.issues[0]?.path.join('.')}: ${checked.error.issues[0]?.message}`;
    const seat = first.seats.find((entry) => entry.harness === reader.harness);
    if (!seat) return 'the hostile seat is missing from the snapshot';
    const fault = fleet.faults.faults().get(seat.id);
    if (fault) return `the reader gave figures that break the contract (the seat guard dropped ${fault})`;
    if (seat.unknownReason?.startsWith('Could not read this session')) return `the reader threw: ${seat.unknownReason}`;
    if (count.sent !== 1) return `the first snapshot was not sent (${logs.join(' | ')})`;
    running = 1;
    const next = await fleet.refresh();
    if ((count.sent as number) !== 2) return `the healthy seat's change was not sent (${logs.join(' | ')})`;
    if (next.seats.find((entry) => entry.harness === other)?.subagents?.running !== 1) return "the healthy seat's change is missing";
    return null;
  } finally {
    fleet.dispose();
  }
}
