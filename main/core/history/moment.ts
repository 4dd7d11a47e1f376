/** A recorded world drawn as a fleet snapshot (pure), so the page shows a past moment with the views it has. */
import { rolesList } from '../../../shared/roles';
import type { FleetSnapshot, Persona, Seat, Station, SubagentEntry } from '../../../shared/schemas';
import { HISTORY_RECENT_JOBS } from './bounds';
import type { PastJob, WorldState } from './transitions';

const iso = (ms: number) => new Date(ms).toISOString();

function entryOf(job: PastJob): SubagentEntry {
  return {
    nativeId: job.nativeId,
    label: job.label,
    kind: job.type,
    background: job.background,
    state: 'running',
    startedAt: iso(job.startedAt),
    replayable: false,
    replayNote: 'A past moment: open the tray in Live to replay.',
  };
}

/** The fleet snapshot of a world: cursor 0, backlogs empty (they are not recorded), the jobs running then as subagents. */
export function worldSnapshot(world: WorldState): FleetSnapshot {
  const jobsBySeat = new Map<string, PastJob[]>();
  for (const job of world.jobs.values()) {
    const list = jobsBySeat.get(job.seat);
    if (list) list.push(job);
    else jobsBySeat.set(job.seat, [job]);
  }
  const seats: Seat[] = [];
  const seatOfPersona = new Map<string, Seat>();
  for (const past of world.seats.values()) {
    const running = (jobsBySeat.get(past.id) ?? []).sort((left, right) => right.startedAt - left.startedAt);
    const activity = past.activity;
    const seat: Seat = {
      id: past.id,
      harness: past.harness,
      personaId: past.persona,
      address: past.address,
      activity: {
        state: activity.state,
        ...(activity.state === 'needs-you' && activity.why ? { why: activity.why } : {}),
        certain: activity.certain,
        since: activity.since === null ? null : iso(activity.since),
        ...(activity.label !== null ? { label: activity.label } : {}),
      },
      subagents: { running: running.length, recent: running.slice(0, HISTORY_RECENT_JOBS).map(entryOf) },
    };
    // A needs-you state recorded without its reason cannot be drawn as needs-you: shown unknown instead.
    if (seat.activity.state === 'needs-you' && seat.activity.why === undefined) seat.activity = { state: 'unknown', certain: false, since: seat.activity.since };
    seats.push(seat);
    seatOfPersona.set(past.persona, seat);
  }
  const personas: Persona[] = [...world.personas.values()].map((past) => {
    const seat = seatOfPersona.get(past.id);
    return {
      id: past.id,
      name: past.name,
      appearance: past.appearance,
      ...(past.role !== null ? { role: past.role } : {}),
      ...(seat ? { seat: seat.address } : {}),
      createdAt: past.createdAt,
      updatedAt: iso(past.updatedAt),
    };
  });
  // A seat whose persona was not recorded is left out: the world places characters by persona.
  const known = new Set(personas.map((persona) => persona.id));
  const stations: Station[] = rolesList(personas).map((entry) => ({ ...entry, backlog: { items: [] } }));
  return { cursor: 0, seats: seats.filter((seat) => known.has(seat.personaId)), personas, stations };
}
