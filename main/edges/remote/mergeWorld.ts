/**
 * One world from many machines: the local snapshot and board with each remote's last known ones beside them, ids
 * namespaced by host. Pure; the hub gives the cursor and revision of the result.
 */
import { sortJobs, type JobBoard } from '../../../shared/jobs';
import { UNREACHABLE_NOTICE_PREFIX, type FleetSnapshot, type Notice, type Persona, type Seat, type Station } from '../../../shared/schemas';
import { roleKey } from '../../../shared/roles';
import { mergeTeams, mergeUsage } from './mergeExtras';
import type { RemoteState } from './remoteState';
import { clockTime, localJob, localPersona, localSeat, remoteId } from './namespace';

export type { RemoteState } from './remoteState';

/** Remote seats as shown here, memoised per remote seat object (a patch keeps unchanged objects). */
export class SeatViews {
  private views = new WeakMap<Seat, { since: string | null; view: Seat }>();
  private personas = new WeakMap<Persona, Persona>();

  seat(host: string, seat: Seat, since: string | null): Seat {
    const known = this.views.get(seat);
    if (known && known.since === since) return known.view;
    const view = localSeat(host, seat, since);
    this.views.set(seat, { since, view });
    return view;
  }

  persona(host: string, persona: Persona): Persona {
    let view = this.personas.get(persona);
    if (!view) {
      view = localPersona(host, persona);
      this.personas.set(persona, view);
    }
    return view;
  }
}

/** The notice a remote shows while it cannot be reached. */
export function unreachableNotice(remote: RemoteState): Notice | null {
  if (remote.unreachableSince === null) return null;
  return {
    id: `${UNREACHABLE_NOTICE_PREFIX}${remote.name}`,
    level: 'warning',
    message: remote.skewed && remote.reason
      ? `${remote.reason}; its agents show as last known.`
      : `${remote.name} unreachable since ${clockTime(remote.unreachableSince)}${remote.reason ? `: ${remote.reason}` : ''}; its agents show as last known.`,
  };
}

function mergeStations(local: readonly Station[], remotes: readonly RemoteState[]): Station[] {
  const stations = local.map((station) => ({ ...station }));
  const byKey = new Map(stations.map((station) => [roleKey(station.role), station]));
  for (const remote of remotes) {
    for (const station of remote.snapshot?.stations ?? []) {
      const known = byKey.get(roleKey(station.role));
      if (known) {
        known.count += station.count;
        continue;
      }
      const added = { ...station };
      byKey.set(roleKey(station.role), added);
      stations.push(added);
    }
  }
  return stations;
}

/** The world: local seats, personas and stations with each remote's beside them. */
export function mergeFleet(local: FleetSnapshot, remotes: readonly RemoteState[], cursor: number, views: SeatViews): FleetSnapshot {
  // No remotes listed: the local world as it is (same objects, so its patches stay as small as they were).
  if (remotes.length === 0) return { ...local, cursor };
  const seats = [...local.seats];
  const personas = [...local.personas];
  const notices: Notice[] = [...(local.notices ?? [])];
  for (const remote of remotes) {
    const down = unreachableNotice(remote);
    if (down) notices.push(down);
    if (remote.contractNotice) notices.push(remote.contractNotice);
    if (!remote.snapshot) continue;
    for (const seat of remote.snapshot.seats) seats.push(views.seat(remote.name, seat, remote.unreachableSince));
    for (const persona of remote.snapshot.personas) personas.push(views.persona(remote.name, persona));
    for (const notice of remote.snapshot.notices ?? []) notices.push({ ...notice, id: remoteId(remote.name, notice.id), message: `${remote.name}: ${notice.message}` });
  }
  const merged: FleetSnapshot = { ...local, cursor, seats, personas, stations: mergeStations(local.stations, remotes) };
  if (notices.length > 0) merged.notices = notices;
  const usage = mergeUsage(local.usage, remotes, Date.now());
  if (usage) merged.usage = usage;
  const { teams, messages } = mergeTeams(local, remotes);
  if (teams) merged.teams = teams;
  else delete merged.teams;
  if (messages) merged.messages = messages;
  else delete merged.messages;
  return merged;
}

/**
 * The jobs board: local jobs with each reachable remote's (an unreachable remote's jobs are unknown, so none are
 * listed), longest-running first as the board keeps them.
 */
export function mergeBoard(local: JobBoard, remotes: readonly RemoteState[], revision: number, cursor: number): JobBoard {
  // No remote lists a board: the local board as it is (the jobs service keeps it in rule J3's order at its `at`), with
  // the same objects, so neither a sort nor a copy runs per change and its patches stay as small as they were.
  if (remotes.every((remote) => !remote.board || remote.unreachableSince !== null)) return { ...local, cursor, revision };
  const jobs = [...local.jobs];
  const aliases = { ...local.aliases };
  const unlisted = [...local.unlisted];
  for (const remote of remotes) {
    if (!remote.board || remote.unreachableSince !== null) continue;
    for (const job of remote.board.jobs) jobs.push(localJob(remote.name, job));
    for (const [key, alias] of Object.entries(remote.board.aliases)) aliases[remoteId(remote.name, key)] = alias;
    for (const entry of remote.board.unlisted) unlisted.push({ ...entry, seatId: remoteId(remote.name, entry.seatId), host: remote.name });
  }
  return { jobs: sortJobs(jobs, Date.parse(local.at)), aliases, unlisted, at: local.at, cursor, revision };
}
