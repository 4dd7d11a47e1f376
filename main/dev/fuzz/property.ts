/**
 * The fuzz property (issue 36), checked for every mutation: the hostile seat's reader returns (never throws out of
 * the fleet), every figure it gives passes the contract (the seat guard drops nothing), and the host holding that
 * seat beside a healthy one still delivers the healthy seat's change, made in the same census, to a page-like
 * follower (whole snapshot, then patches applied onto the version they name, as the page does).
 *
 * One host serves a whole run: the fleet, its event stream and update sender, and the follower live as long as the
 * harness; each mutation rewrites the hostile seat's records, and the reader that reads them is swapped in (or told
 * to forget the seat), so a mutation is read whole and a stall left by an earlier one would show in the next.
 */
import { FleetSnapshotSchema, type FleetSnapshot, type Harness, type Persona, type SeatAddress } from '../../../shared/schemas';
import { applyFleetPatch, type FleetPatch } from '../../../shared/updates';
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

/** A reader that hands every call to the one set for the current mutation. */
function swappable(harness: Harness, current: () => SeatReader): SeatReader {
  return {
    harness,
    discover: (...args) => current().discover(...args),
    resolve: (...args) => current().resolve(...args),
    project: (...args) => current().project(...args),
    replay: (...args) => current().replay(...args),
    watchPaths: (...args) => current().watchPaths(...args),
    forget: (...args) => current().forget(...args),
    dispose: () => current().dispose(),
  };
}

/** One host for a whole fuzz run: the hostile seat beside a healthy one, and a page-like follower of its events. */
export class FuzzHost {
  private reader: SeatReader;
  private readonly fleet: FleetService;
  private readonly other: Harness;
  private running = 0;
  private page: FleetSnapshot | null = null;
  private gap: string | null = null;
  private readonly logs: string[] = [];

  constructor(
    reader: SeatReader,
    private readonly hostile: SeatAddress,
  ) {
    this.reader = reader;
    this.other = reader.harness === 'claude' ? 'codex' : 'claude';
    this.fleet = new FleetService({
      personas: personasHolding([hostile, { harness: this.other, home: '/healthy', sessionId: 'healthy', cwd: null, path: null }]),
      readers: { [reader.harness]: swappable(reader.harness, () => this.reader), [this.other]: healthyReader(this.other, () => this.running) },
      log: (line) => this.logs.push(line),
      ownerHome: '/home/fuzz',
    });
    const events = createEventStream((line) => this.logs.push(line));
    events.onEvent((event, payload) => this.follow(event, payload));
    const updates = createUpdateSender(events.emit);
    this.fleet.onChange((snapshot) => updates.fleet(snapshot));
  }

  /**
   * Checks the property for the hostile seat's records as they are now on disk; `reader` (when given) replaces the
   * one the last mutation used, else the kept reader forgets the seat so it reads it whole. The failure, or null.
   */
  async check(reader?: SeatReader): Promise<string | null> {
    if (reader && reader !== this.reader) {
      this.reader.dispose();
      this.reader = reader;
    } else if (!reader) this.reader.forget(this.hostile);
    this.logs.length = 0;
    // The healthy seat changes in the same census that first reads the mutation: its change must reach the page
    // beside whatever the hostile seat became (a stall from an earlier mutation shows here too: the host is kept).
    this.running += 1;
    const first = await this.fleet.refresh();
    const checked = FleetSnapshotSchema.safeParse(first);
    if (!checked.success) return `the snapshot breaks the contract: ${checked.error.issues[0]?.path.join('.')}: ${checked.error.issues[0]?.message}`;
    const seat = first.seats.find((entry) => entry.harness === this.hostile.harness);
    if (!seat) return 'the hostile seat is missing from the snapshot';
    const fault = this.fleet.faults.faults().get(seat.id);
    if (fault) return `the reader gave figures that break the contract (the seat guard dropped ${fault})`;
    if (seat.unknownReason?.startsWith('Could not read this session')) return `the reader threw: ${seat.unknownReason}`;
    if (this.gap) return this.gap;
    if (this.page?.cursor !== first.cursor) return `the snapshot did not reach the page (${this.logs.join(' | ')})`;
    if (first.seats.find((entry) => entry.harness === this.other)?.subagents?.running !== this.running) return "the healthy seat's change is missing from the snapshot";
    const shown = this.page?.seats.find((entry) => entry.harness === this.other);
    if (shown?.subagents?.running !== this.running) return `the healthy seat's change did not reach the page (${this.logs.join(' | ')})`;
    return null;
  }

  /** Ends the fleet and the reader. */
  dispose(): void {
    this.fleet.dispose();
    this.reader.dispose();
  }

  private follow(event: string, payload: unknown): void {
    if (event === 'fleet.changed') this.page = (payload as { snapshot: FleetSnapshot }).snapshot;
    if (event !== 'fleet.patched') return;
    const patch = (payload as { patch: FleetPatch }).patch;
    const next = this.page ? applyFleetPatch(this.page, patch) : null;
    if (next) this.page = next;
    else this.gap ??= `a patch from cursor ${patch.from} did not apply onto the page's cursor ${this.page?.cursor ?? 'none'} (an update was not sent: ${this.logs.join(' | ')})`;
  }
}
