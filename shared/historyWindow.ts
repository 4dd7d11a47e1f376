/**
 * A window of recent history (`history.window`) folded into a past moment, so the page answers a press on the timeline
 * inside it at once, without a round trip: the world at the window's start, the transitions after it applied up to
 * the moment with the same fold the host's seek uses (pastWorld.ts), drawn as the same snapshot, each seat with its
 * latest usage sample by then. Pure. Moments outside the window are still asked of the host.
 */
import type { HistoryMoment, HistoryWindow } from './history';
import { applyTransition, cloneWorld, countAtOrBefore, sampleAt, withSampleUsage, worldSnapshot, type UsageSample, type WorldState, type WorldTransition } from './pastWorld';

type WindowWorld = NonNullable<HistoryWindow>['base'];

/** A world of the window as the fold keeps it. */
function worldOf(record: WindowWorld, at: number): WorldState {
  return {
    at,
    seats: new Map(record.seats.map((seat) => [seat.id, seat])),
    personas: new Map(record.personas.map((persona) => [persona.id, persona])),
    jobs: new Map(record.jobs.map((job) => [job.key, job])),
  };
}

/** A window the host gave, ready to fold. */
export class HistoryWindowFold {
  readonly fromMs: number;
  readonly untilMs: number;
  /** The worlds a fold starts from, oldest first: the window's start, then each snapshot the host took in it. */
  private readonly starts: readonly WorldState[];
  private readonly transitions: readonly WorldTransition[];
  private readonly usage: Map<string, readonly UsageSample[]>;
  /** The last world folded: its start, how many transitions it holds; a later moment from the same start folds on from it. */
  private folded: { start: WorldState; count: number; world: WorldState } | null = null;

  constructor(window: NonNullable<HistoryWindow>) {
    this.fromMs = window.from;
    this.untilMs = window.until;
    this.starts = [worldOf(window.base, window.from), ...window.snapshots.map((snapshot) => worldOf(snapshot, snapshot.at))];
    this.transitions = window.transitions;
    this.usage = new Map(window.usage.map((entry) => [entry.seat, entry.samples]));
  }

  /** True when the moment at `ms` lies in the window. */
  covers(ms: number): boolean {
    return ms >= this.fromMs && ms <= this.untilMs;
  }

  /**
   * The moment at `ms` (inside the window), as `history.at` answers it: the newest start at or before it, with the
   * transitions after that start and at or before `ms` applied.
   */
  momentAt(ms: number): HistoryMoment {
    const start = this.starts[Math.max(0, countAtOrBefore(this.starts, ms) - 1)];
    const first = countAtOrBefore(this.transitions, start.at);
    const count = countAtOrBefore(this.transitions, ms);
    const known = this.folded !== null && this.folded.start === start && this.folded.count <= count ? this.folded : null;
    const world = cloneWorld(known ? known.world : start);
    for (let index = known ? known.count : first; index < count; index += 1) applyTransition(world, this.transitions[index]);
    world.at = ms;
    this.folded = { start, count, world };
    const snapshot = worldSnapshot(world);
    const seats = withSampleUsage(snapshot.seats, (seatId) => sampleAt(this.usage.get(seatId) ?? [], ms));
    return { at: new Date(ms).toISOString(), exact: true, snapshot: { ...snapshot, seats } };
  }
}
