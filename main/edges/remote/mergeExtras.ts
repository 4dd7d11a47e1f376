/**
 * The parts of a remote's world beyond seats and personas (issue 42): its usage counted in the HUD's today/open
 * totals, its agent teams and the messages between its sessions, every id namespaced by host. Pure.
 */
import type { AgentMessage, FleetSnapshot, Team } from '../../../shared/schemas';
import { USAGE_TOKENS_MAX, type FleetUsage, type UsageSum } from '../../../shared/usage';
import type { RemoteState } from './remoteState';
import { remoteId } from './namespace';
import { localMidnight } from '../../core/usage/fleetUsage';

/** The most messages a snapshot carries (the schema's bound). */
const MESSAGES_MAX = 50;

/** Two sums as one: tokens added, costs added (an estimate in either makes the whole an estimate), partial if either is. */
export function addUsageSums(first: UsageSum, second: UsageSum): UsageSum {
  const a = first.totals;
  const b = second.totals;
  const totals = { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
  const reasoning = a.reasoning === undefined && b.reasoning === undefined ? undefined : (a.reasoning ?? 0) + (b.reasoning ?? 0);
  // Issue 36: a sum that would pass the token bound leaves the second out, counted, and is partial (never capped).
  if (Math.max(totals.input, totals.output, totals.cacheRead, totals.cacheWrite, reasoning ?? 0) > USAGE_TOKENS_MAX) {
    return { ...first, partial: true, skippedSeats: (first.skippedSeats ?? 0) + 1 };
  }
  const skippedSeats = (first.skippedSeats ?? 0) + (second.skippedSeats ?? 0);
  const cost =
    first.cost && second.cost
      ? { usd: first.cost.usd + second.cost.usd, estimated: first.cost.estimated || second.cost.estimated }
      : (first.cost ?? second.cost);
  return {
    totals: reasoning === undefined ? totals : { ...totals, reasoning },
    partial: first.partial || second.partial,
    unpriced: first.unpriced + second.unpriced,
    ...(cost ? { cost } : {}),
    ...(skippedSeats > 0 ? { skippedSeats } : {}),
  };
}

/** Nothing counted yet: no tokens, no cost (the HUD then says which hosts are unknown). */
const NOTHING: UsageSum = { totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false, unpriced: 0 };

/**
 * The HUD's usage with every reachable remote's added. A remote that cannot be reached, has not answered yet, or
 * reports no usage line while its seats carry usage adds nothing: it is named in `unknownHosts` and makes the totals
 * partial (shown "≥"), so its usage is unknown, never zero, and never silently missing. `nowMs` gives "today" when no
 * machine has a line of its own.
 */
export function mergeUsage(local: FleetUsage | undefined, remotes: readonly RemoteState[], nowMs: number): FleetUsage | undefined {
  let usage = local;
  const unknownHosts: string[] = [];
  for (const remote of remotes) {
    const snapshot = remote.snapshot;
    if (remote.unreachableSince !== null || !snapshot) {
      unknownHosts.push(remote.name);
      continue;
    }
    const theirs = snapshot.usage;
    if (!theirs) {
      if (snapshot.seats.some((seat) => seat.usage !== undefined)) unknownHosts.push(remote.name);
      continue;
    }
    usage = usage ? { since: usage.since, today: addUsageSums(usage.today, theirs.today), open: addUsageSums(usage.open, theirs.open) } : { since: theirs.since, today: theirs.today, open: theirs.open };
  }
  if (unknownHosts.length === 0) return usage;
  const base = usage ?? { since: new Date(localMidnight(nowMs)).toISOString(), today: NOTHING, open: NOTHING };
  return { since: base.since, today: { ...base.today, partial: true }, open: { ...base.open, partial: true }, unknownHosts };
}

function localMessage(host: string, message: AgentMessage): AgentMessage {
  return {
    ...message,
    id: remoteId(host, message.id),
    fromPersonaId: message.fromPersonaId === null ? null : remoteId(host, message.fromPersonaId),
    toPersonaId: message.toPersonaId === null ? null : remoteId(host, message.toPersonaId),
  };
}

/** A remote team as shown here: its name tagged with the host (two machines may both run a team "alpha"). */
export function localTeam(host: string, team: Team): Team {
  return {
    ...team,
    name: `${team.name}@${host}`,
    leadPersonaId: team.leadPersonaId === null ? null : remoteId(host, team.leadPersonaId),
    members: team.members.map((member) => ({
      ...member,
      seatId: member.seatId === null ? null : remoteId(host, member.seatId),
      personaId: member.personaId === null ? null : remoteId(host, member.personaId),
    })),
    messages: team.messages.map((message) => localMessage(host, { ...message, team: message.team === null ? null : `${message.team}@${host}` })),
  };
}

/** Teams and messages of the local world with each remote's beside them (the most recent messages kept). */
export function mergeTeams(local: FleetSnapshot, remotes: readonly RemoteState[]): Pick<FleetSnapshot, 'teams' | 'messages'> {
  const teams: Team[] = [...(local.teams ?? [])];
  const messages: AgentMessage[] = [...(local.messages ?? [])];
  let moved = false;
  for (const remote of remotes) {
    for (const team of remote.snapshot?.teams ?? []) {
      teams.push(localTeam(remote.name, team));
      moved = true;
    }
    for (const message of remote.snapshot?.messages ?? []) {
      messages.push(localMessage(remote.name, message));
      moved = true;
    }
  }
  if (!moved) return { teams: local.teams, messages: local.messages };
  const recent = messages.sort((first, second) => first.at.localeCompare(second.at)).slice(-MESSAGES_MAX);
  return { ...(teams.length > 0 ? { teams } : {}), ...(recent.length > 0 ? { messages: recent } : {}) };
}
