/**
 * Reads the Claude Code agent teams that touch addressed seats: `<claude home>/teams/<team>/config.json` and its
 * `inboxes/*.json`, for the Claude homes of the seats the owner opened. Bounded: 64 team folders per home, 256 KiB
 * per team file, 64 inboxes of at most 1 MiB per team, 50 messages kept per team. Labels only; never a body.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { UNKNOWN_ACTIVITY } from '../../../shared/activity';
import type { Activity, AgentMessage, Team, TeamMember } from '../../../shared/schemas';
import { parseInbox, parseTeamFile, recentMessages, type InboxLabel, type TeamFile } from './teamFiles';

/** Team folders looked at per Claude home. */
export const TEAM_FOLDERS_MAX = 64;
/** Bytes of a team file read at most. */
export const TEAM_FILE_MAX_BYTES = 256 * 1024;
/** Inboxes read per team. */
export const INBOXES_MAX = 64;
/** Bytes of one inbox read at most; a larger inbox is skipped and noted. */
export const INBOX_MAX_BYTES = 1024 * 1024;

/** An addressed Claude seat as the team reader needs it. */
export interface TeamSeat {
  seatId: string;
  personaId: string;
  home: string;
  sessionId: string;
  activity: Activity;
}

async function readBounded(file: string, max: number): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile()) return { ok: false, reason: `${path.basename(file)} is not a file` };
    if (stats.size > max) return { ok: false, reason: `${path.basename(file)} is larger than ${Math.round(max / 1024)} KiB` };
    return { ok: true, text: await fs.readFile(file, 'utf8') };
  } catch (error) {
    return { ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : (error as Error).message };
  }
}

async function listNames(folder: string): Promise<string[]> {
  try {
    return (await fs.readdir(folder)).sort();
  } catch {
    return [];
  }
}

function leadName(team: TeamFile): string | null {
  const lead = team.members.find((member) => member.agentId === team.leadAgentId);
  return lead?.name ?? (team.leadAgentId ? team.leadAgentId.split('@')[0] : null);
}

async function readInboxes(folder: string, notes: string[]): Promise<InboxLabel[]> {
  const names = (await listNames(path.join(folder, 'inboxes'))).filter((name) => name.endsWith('.json'));
  if (names.length > INBOXES_MAX) notes.push(`Only ${INBOXES_MAX} of ${names.length} inboxes were read.`);
  const labels: InboxLabel[] = [];
  let skipped = 0;
  for (const name of names.slice(0, INBOXES_MAX)) {
    const owner = name.slice(0, -'.json'.length);
    const read = await readBounded(path.join(folder, 'inboxes', name), INBOX_MAX_BYTES);
    if (!read.ok) {
      notes.push(`The inbox of ${owner} was not read: ${read.reason}.`);
      continue;
    }
    // A writer may be midway through rewriting the inbox; what does not parse now is read on the next census.
    const parsed = parseInbox(read.text, owner);
    if (!parsed.ok) {
      notes.push(`The inbox of ${owner} was not read: ${parsed.reason}`);
      continue;
    }
    skipped += parsed.skipped;
    labels.push(...parsed.messages);
  }
  if (skipped > 0) notes.push(`${skipped} inbox ${skipped === 1 ? 'entry was' : 'entries were'} skipped (no sender or time).`);
  return labels;
}

/** Builds one team's view from its file and inboxes, matching members to seats by session id. */
function teamView(team: TeamFile, labels: InboxLabel[], seatsBySession: Map<string, TeamSeat>, notes: string[]): Team {
  const lead = leadName(team);
  const sessionOf = (name: string, sessionId: string | null) => sessionId ?? (name === lead ? team.leadSessionId : null);
  const personaByName = new Map<string, string | null>();
  const members: TeamMember[] = team.members.map((member) => {
    const seat = seatsBySession.get(sessionOf(member.name, member.sessionId) ?? '') ?? null;
    personaByName.set(member.name, seat?.personaId ?? null);
    return { name: member.name, agentId: member.agentId, lead: member.name === lead, colour: member.colour, seatId: seat?.seatId ?? null, personaId: seat?.personaId ?? null, state: seat?.activity ?? UNKNOWN_ACTIVITY };
  });
  if (team.skipped > 0) notes.push(`${team.skipped} team member ${team.skipped === 1 ? 'entry was' : 'entries were'} skipped (no name).`);
  const messages: AgentMessage[] = recentMessages(labels).map((label) => ({
    id: `${team.name}:${label.to}:${label.index}:${label.atMs}`,
    team: team.name,
    from: label.from,
    to: label.to,
    at: label.at,
    summary: label.summary,
    fromPersonaId: personaByName.get(label.from) ?? null,
    toPersonaId: personaByName.get(label.to) ?? null,
  }));
  const leadPersonaId = lead !== null ? (personaByName.get(lead) ?? seatsBySession.get(team.leadSessionId ?? '')?.personaId ?? null) : null;
  return { name: team.name, leadPersonaId, members, messages, notes };
}

/** The teams whose lead or members are addressed seats, in each home's team-folder order, with their folders. */
export async function readTeams(seats: readonly TeamSeat[]): Promise<{ team: Team; folder: string }[]> {
  const teams: { team: Team; folder: string }[] = [];
  const homes = [...new Set(seats.map((seat) => seat.home))];
  for (const home of homes) {
    const seatsBySession = new Map(seats.filter((seat) => seat.home === home).map((seat) => [seat.sessionId, seat]));
    const root = path.join(home, 'teams');
    for (const folderName of (await listNames(root)).slice(0, TEAM_FOLDERS_MAX)) {
      const folder = path.join(root, folderName);
      const read = await readBounded(path.join(folder, 'config.json'), TEAM_FILE_MAX_BYTES);
      if (!read.ok) continue;
      const parsed = parseTeamFile(read.text, folderName);
      if (!parsed.ok) continue;
      const team = parsed.team;
      const touches = [team.leadSessionId, ...team.members.map((member) => member.sessionId)].some((id) => id !== null && seatsBySession.has(id));
      if (!touches) continue;
      const notes: string[] = [];
      teams.push({ team: teamView(team, await readInboxes(folder, notes), seatsBySession, notes), folder });
    }
  }
  return teams;
}

/** Each Claude home's `teams/` folder (a team appearing or going). */
export function teamWatchPaths(homes: readonly string[]): string[] {
  return [...new Set(homes.map((home) => path.join(home, 'teams')))];
}
