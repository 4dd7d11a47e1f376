/**
 * The recorder: a subscriber to the fleet's change stream (the whole snapshot once, then `fleet.patched` changes) and
 * to the jobs board's (`jobs.changed`, then `jobs.patched`). It compares only what a change carries with the world it
 * holds, so an unchanged fleet costs nothing, and writes each change's transitions in one transaction.
 */
import type { JobsPatch } from '../../../shared/updates';
import type { FleetPatch } from '../../../shared/updates';
import type { Job, JobBoard } from '../../../shared/jobs';
import { jobRowKey } from '../../../shared/jobs';
import type { FleetSnapshot, Harness, Persona, Seat } from '../../../shared/schemas';
import { jobGone, jobTransitions, personaRemoved, personaTransitions, seatClosed, seatTransitions, usageSample } from './derive';
import type { HistoryStore } from './store';
import { applyTransition, cloneWorld, type Transition, type WorldState } from '../../../shared/pastWorld';

/** Ended jobs remembered so a board that lists them again writes nothing (the board keeps them 30 minutes). */
const ENDED_REMEMBERED = 4096;
/** How far back ended jobs are remembered from the store on start (past the board's 30 minutes). */
const ENDED_REMEMBERED_MS = 2 * 3_600_000;

/** Records transitions into a store; `failed` is set (and nothing more written) after the first failed write. */
export class HistoryRecorder {
  private world: WorldState;
  private readonly ended = new Set<string>();
  private readonly lastUsage = new Map<string, { at: number; totals: string }>();
  private failure: string | null = null;

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number,
    private readonly onFailure: (reason: string) => void = () => {},
  ) {
    this.world = store.seek(now()).world;
    for (const key of store.endedSince(now() - ENDED_REMEMBERED_MS)) this.rememberEnded(key);
  }

  /** Why recording stopped, or null while it records. */
  get failed(): string | null {
    return this.failure;
  }

  /** A copy of the world as the recorder holds it now. */
  current(): WorldState {
    return cloneWorld(this.world);
  }

  /** A whole snapshot: every seat and persona compared; those the world holds but the snapshot lacks are gone. */
  fleetWhole(snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>, at = this.now()): void {
    const seen = new Set(snapshot.seats.map((seat) => seat.id));
    const people = new Set(snapshot.personas.map((persona) => persona.id));
    this.batch(at, (out, floor, at) => {
      this.personas(out, snapshot.personas, at);
      this.seats(out, snapshot.seats, at, floor);
      for (const id of [...this.world.seats.keys()]) if (!seen.has(id)) this.push(out, seatClosed(this.world, id, at));
      for (const id of [...this.world.personas.keys()]) if (!people.has(id)) this.push(out, personaRemoved(this.world, id, at));
    });
  }

  /** A fleet change: only the seats and personas it sets or removes are looked at. */
  fleetPatch(patch: Pick<FleetPatch, 'seats' | 'personas'>, at = this.now()): void {
    if (!patch.seats && !patch.personas) return;
    this.batch(at, (out, floor, at) => {
      if (patch.personas?.set) this.personas(out, patch.personas.set, at);
      if (patch.seats?.set) this.seats(out, patch.seats.set, at, floor);
      for (const id of patch.seats?.removed ?? []) this.push(out, seatClosed(this.world, id, at));
      for (const id of patch.personas?.removed ?? []) this.push(out, personaRemoved(this.world, id, at));
    });
  }

  /** A whole board: every job compared; a running job the board no longer lists has ended. */
  jobsWhole(board: Pick<JobBoard, 'jobs'>, at = this.now()): void {
    const listed = new Set(board.jobs.map(jobRowKey));
    this.batch(at, (out, floor, at) => {
      this.jobs(out, board.jobs, at, floor);
      for (const job of [...this.world.jobs.values()]) if (!listed.has(job.key)) this.push(out, [jobGone(job, at)]);
    });
  }

  /** A board change: the jobs it sets, and running jobs it removes. */
  jobsPatch(patch: Pick<JobsPatch, 'jobs'>, at = this.now()): void {
    if (!patch.jobs) return;
    this.batch(at, (out, floor, at) => {
      if (patch.jobs?.set) this.jobs(out, patch.jobs.set, at, floor);
      for (const key of patch.jobs?.removed ?? []) {
        const job = this.world.jobs.get(key);
        if (job) this.push(out, [jobGone(job, at)]);
      }
    });
  }

  /** An agent launched from Pixelfleet. */
  launch(launched: { personaId: string; harness: Harness; name: string; role: string | null }, at = this.now()): void {
    this.batch(at, (out, _floor, at) => this.push(out, [{ t: 'launch', at, persona: launched.personaId, harness: launched.harness, name: launched.name, role: launched.role }]));
  }

  /** A reply sent to an agent's terminal: the persona and the time only (issue 39). */
  reply(personaId: string, at = this.now()): void {
    this.batch(at, (out, _floor, at) => this.push(out, [{ t: 'reply', at, persona: personaId }]));
  }

  private personas(out: Transition[], personas: readonly Persona[], at: number): void {
    for (const persona of personas) this.push(out, personaTransitions(this.world, persona, at));
  }

  private seats(out: Transition[], seats: readonly Seat[], at: number, floor: number): void {
    for (const seat of seats) {
      this.push(out, seatTransitions(this.world, seat, at, floor));
      if (!seat.usage) continue;
      const totals = JSON.stringify(seat.usage.totals);
      const last = this.lastUsage.get(seat.id);
      if (last?.totals === totals) continue;
      const sample = usageSample(seat, at, last?.at);
      if (!sample) continue;
      this.lastUsage.set(seat.id, { at, totals });
      this.push(out, [sample]);
    }
  }

  private jobs(out: Transition[], jobs: readonly Job[], at: number, floor: number): void {
    for (const job of jobs) {
      const key = jobRowKey(job);
      if (this.ended.has(key)) continue;
      const transitions = jobTransitions(this.world, job, at, floor, () => false, () => this.store.newJobRow());
      this.push(out, transitions);
      if (job.state === 'ended') this.rememberEnded(key);
    }
  }

  private rememberEnded(key: string): void {
    this.ended.add(key);
    if (this.ended.size > ENDED_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
  }

  /** Applies each transition to the world as it is derived, so later ones in the batch see it. */
  private push(out: Transition[], transitions: readonly Transition[]): void {
    for (const transition of transitions) {
      applyTransition(this.world, transition);
      out.push(transition);
    }
  }

  /**
   * One transaction per change: its transitions, and the whole world when a snapshot is due. Every transition lies
   * after the newest snapshot (at least 1 ms), so a seek from a snapshot replays exactly what came after it.
   */
  private batch(requested: number, derive: (out: Transition[], floor: number, at: number) => void): void {
    if (this.failure) return;
    const newest = this.store.newestSnapshotAt();
    const floor = newest === null ? Number.NEGATIVE_INFINITY : newest + 1;
    const at = Math.max(requested, floor);
    const out: Transition[] = [];
    derive(out, floor, at);
    const due = this.store.snapshotDue(at);
    if (out.length === 0 && !due) return;
    this.world.at = at;
    try {
      this.store.write(out, due ? cloneWorld(this.world) : undefined);
    } catch (error) {
      this.failure = (error as Error)?.message ?? String(error);
      this.onFailure(this.failure);
    }
  }
}
