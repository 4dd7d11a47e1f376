/** The world as plain records, derived from the store: what each station and agent view shows. Pure. */
import { UNKNOWN_ACTIVITY } from '../../shared/activity';
import { markedKinds } from '../../shared/drift';
import { BUILT_IN_ROLES, roleKey } from '../../shared/roles';
import { UNREACHABLE_NOTICE_PREFIX, type Activity, type Appearance, type FleetSnapshot, type Harness } from '../../shared/schemas';
import type { AppState } from '../store/appState';
import { bubbleKind } from './bubbles';
import { contextGauge, sameGauge, type ContextGauge } from './contextBar';
import { lookKey } from './looks';
import { nearCompact } from './nearCompact';

/** The lobby's station key (agents without a role stand there). */
export const LOBBY_KEY = '';

/** One station as a view shows it. */
export interface StationModel {
  key: string;
  label: string;
  builtIn: boolean;
  lobby: boolean;
  /** Items in the station's backlog; null when unknown (the past view: history does not record backlogs). */
  backlogCount: number | null;
  backlogError: string | null;
}

/** One agent as a view shows it. `subagents` null means unknown ("?"), never zero. */
export interface AgentModel {
  id: string;
  name: string;
  appearance: Appearance;
  role: string | null;
  stationKey: string;
  harness: Harness | null;
  activity: Activity;
  subagents: number | null;
  seatId: string | null;
  pending: boolean;
  /** The Claude Code agent team the agent leads or belongs to (its first, by the snapshot's order), or null. */
  team: string | null;
  /** True when the agent leads that team. */
  teamLead: boolean;
  /** The context bar under the character (issue 26): its level and whole percent, unknown without a fill. */
  context: ContextGauge;
  /** The remote host the agent lives on (issue 28), or null for this machine. */
  host?: string | null;
  /** True while that host cannot be reached: the agent is its last known self, greyed. */
  unreachable?: boolean;
  /** Unknown record kinds from outside the tested range (the drift mark), or null (issue 29). */
  drift?: string[] | null;
  /** Whole percent of a context at or past the budget's warning mark (near auto-compact), or null (issue 41). */
  nearCompact?: number | null;
}

/** Everything the scene draws, stations in world order (built-ins, custom roles, then the lobby). */
export interface WorldModel {
  stations: StationModel[];
  agents: AgentModel[];
}

/**
 * The agent records of the last derivation with what they were derived from, so an agent whose persona, seat,
 * pending role and team are the same objects and values keeps its very record (views then skip it by identity).
 */
export class AgentModelCache {
  readonly entries = new Map<string, { persona: unknown; seat: unknown; pending: unknown; team: string | null; lead: boolean; model: AgentModel }>();
}

/** Derives the world from the store: pending role changes shown at once, a station for every role an agent holds. */
export function selectWorld(state: Pick<AppState, 'fleet' | 'ui'> & Partial<Pick<AppState, 'history'>>, cache?: AgentModelCache): WorldModel {
  // The past view's stations have no backlog recorded: their counts are unknown, never 0.
  const past = (state.history?.viewing ?? null) !== null;
  const count = (items: number) => (past ? null : items);
  const stations: StationModel[] = [];
  const byKey = new Map<string, StationModel>();
  const addStation = (station: StationModel) => {
    if (byKey.has(station.key)) return;
    byKey.set(station.key, station);
    stations.push(station);
  };
  const fleet = state.fleet;
  for (const role of BUILT_IN_ROLES) {
    const found = fleet?.stations.find((station) => roleKey(station.role) === role);
    addStation({ key: role, label: role, builtIn: true, lobby: false, backlogCount: count(found?.backlog.items.length ?? 0), backlogError: found?.backlog.error ?? null });
  }
  for (const station of fleet?.stations ?? []) {
    addStation({
      key: roleKey(station.role),
      label: station.role,
      builtIn: station.builtIn,
      lobby: false,
      backlogCount: count(station.backlog.items.length),
      backlogError: station.backlog.error ?? null,
    });
  }
  const seats = new Map((fleet?.seats ?? []).map((seat) => [seat.personaId, seat]));
  // Hosts that cannot be reached now: their agents (seated or not) show greyed as last known.
  const downHosts = new Set((fleet?.notices ?? []).flatMap((notice) => (notice.id.startsWith(UNREACHABLE_NOTICE_PREFIX) ? [notice.id.slice(UNREACHABLE_NOTICE_PREFIX.length)] : [])));
  const teams = teamsByPersona(fleet);
  const agents: AgentModel[] = (fleet?.personas ?? []).map((persona) => {
    const pending = state.ui.pending[persona.id];
    const role = pending ? pending.role : (persona.role ?? null);
    const key = role ? roleKey(role) : LOBBY_KEY;
    if (role && !byKey.has(key)) addStation({ key, label: role, builtIn: false, lobby: false, backlogCount: count(0), backlogError: null });
    const seat = seats.get(persona.id);
    const team = teams.get(persona.id);
    const teamName = team?.name ?? null;
    const teamLead = team?.lead ?? false;
    const cached = cache?.entries.get(persona.id);
    const unreachable = seat?.unreachableSince !== undefined || (persona.host !== undefined && downHosts.has(persona.host));
    if (cached && cached.persona === persona && cached.seat === seat && cached.pending === pending && cached.team === teamName && cached.lead === teamLead && (cached.model.unreachable ?? false) === unreachable) {
      return cached.model;
    }
    const model: AgentModel = {
      id: persona.id,
      name: persona.name,
      appearance: persona.appearance,
      role,
      stationKey: key,
      harness: seat?.harness ?? persona.seat?.harness ?? null,
      activity: seat?.activity ?? UNKNOWN_ACTIVITY,
      subagents: seat?.subagents ? seat.subagents.running : null,
      seatId: seat?.id ?? null,
      pending: pending !== undefined,
      team: teamName,
      teamLead,
      context: contextGauge(seat?.usage),
      host: persona.host ?? null,
      unreachable,
      drift: markedKinds(seat?.drift),
      nearCompact: nearCompact(contextGauge(seat?.usage)),
    };
    // A seat that changed only in what the world does not draw (token totals, a cost) keeps its record, so neither the
    // scene nor the mirror redoes the agent: the bar redraws only when its own figure changes.
    const kept = cached && sameAgentModel(cached.model, model) ? cached.model : model;
    cache?.entries.set(persona.id, { persona, seat, pending, team: teamName, lead: teamLead, model: kept });
    return kept;
  });
  if (cache && cache.entries.size > agents.length) {
    const present = new Set(agents.map((agent) => agent.id));
    for (const id of cache.entries.keys()) if (!present.has(id)) cache.entries.delete(id);
  }
  stations.push({ key: LOBBY_KEY, label: 'unassigned', builtIn: false, lobby: true, backlogCount: 0, backlogError: null });
  return { stations, agents };
}

/** True when two agent records show the same thing (activity and bar compared by value). */
export function sameAgentModel(first: AgentModel, second: AgentModel): boolean {
  const a = first.activity;
  const b = second.activity;
  return (
    first.id === second.id &&
    first.name === second.name &&
    first.appearance === second.appearance &&
    first.role === second.role &&
    first.stationKey === second.stationKey &&
    first.harness === second.harness &&
    first.subagents === second.subagents &&
    first.seatId === second.seatId &&
    first.pending === second.pending &&
    first.team === second.team &&
    first.teamLead === second.teamLead &&
    sameGauge(first.context, second.context) &&
    (first.host ?? null) === (second.host ?? null) &&
    (first.unreachable ?? false) === (second.unreachable ?? false) &&
    (first.drift ?? []).join('\n') === (second.drift ?? []).join('\n') &&
    (first.nearCompact ?? null) === (second.nearCompact ?? null) &&
    a.state === b.state &&
    a.why === b.why &&
    a.certain === b.certain &&
    a.since === b.since &&
    a.label === b.label
  );
}

/** Each agent's first team (by the snapshot's order): its name and whether the agent leads it. */
export function teamsByPersona(fleet: Pick<FleetSnapshot, 'teams'> | null): Map<string, { name: string; lead: boolean }> {
  const byPersona = new Map<string, { name: string; lead: boolean }>();
  for (const team of fleet?.teams ?? []) {
    if (team.leadPersonaId !== null && !byPersona.has(team.leadPersonaId)) byPersona.set(team.leadPersonaId, { name: team.name, lead: true });
    for (const member of team.members) {
      if (member.personaId !== null && !byPersona.has(member.personaId)) byPersona.set(member.personaId, { name: team.name, lead: member.lead });
    }
  }
  return byPersona;
}

/** The text a badge shows: hidden at 0, "?" when unknown. */
export function badgeText(subagents: number | null): string | null {
  if (subagents === null) return '?';
  return subagents > 0 ? String(subagents) : null;
}

/**
 * True when two records of one agent look the same in the world: its look, name plate and host tag, badge, context
 * bar, team mark, bubble, drift and pace marks, and the state its tint and pose follow (what AgentView draws). A record
 * that changed only in what the world does not draw (a tool's label, a usage total, when a state began: the hover card
 * and the mirror show those) needs no pixel drawn again, so no frame is drawn and read back for it.
 */
export function drawnAlike(before: AgentModel, after: AgentModel): boolean {
  return (
    lookKey(before.appearance) === lookKey(after.appearance) &&
    before.name === after.name &&
    before.harness === after.harness &&
    before.host === after.host &&
    before.unreachable === after.unreachable &&
    badgeText(before.subagents) === badgeText(after.subagents) &&
    sameGauge(before.context, after.context) &&
    before.team === after.team &&
    before.teamLead === after.teamLead &&
    before.activity.state === after.activity.state &&
    bubbleKind(before.activity) === bubbleKind(after.activity) &&
    marked(before.drift) === marked(after.drift) &&
    marked(before.nearCompact) === marked(after.nearCompact)
  );
}

/** Whether a mark shows: it looks the same whatever it is for (the hover card says which kinds, how full). */
const marked = (mark: unknown): boolean => mark !== null && mark !== undefined;
