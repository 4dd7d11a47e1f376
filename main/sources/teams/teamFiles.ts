/**
 * Pure reading of Claude Code agent-team files (`<claude>/teams/<team>/config.json` and `inboxes/<agent>.json`).
 * Labels only: a message yields its sender, recipient, time and summary; its text is never kept. Shapes and the
 * versions they rest on are in TEAMS.md beside this file.
 *
 * Rule TF1: a team file is a JSON object with a `name` or a folder name, and a `members` array; members without a
 *           string `name` are skipped and counted.
 * Rule TF2: an inbox is a JSON array; entries without a string `from` and a parseable `timestamp` are skipped and
 *           counted; everything else (text, read flags, colours) is ignored.
 * Rule TF3: a summary is kept only when the message carries one, trimmed to one line of at most 60 characters.
 * Rule TF4: a team keeps its 50 most recent messages, by time (ties by the order read).
 */
import { MESSAGE_SUMMARY_MAX } from '../../../shared/schemas';

/** Messages kept per team (rule TF4). */
export const TEAM_MESSAGES_MAX = 50;

/** One member as the team file records it. */
export interface TeamFileMember {
  name: string;
  agentId: string;
  colour: string | null;
  sessionId: string | null;
}

/** A team file's fields that Pixelfleet uses. */
export interface TeamFile {
  name: string;
  leadAgentId: string | null;
  leadSessionId: string | null;
  members: TeamFileMember[];
  skipped: number;
}

/** One inbox entry as labels. */
export interface InboxLabel {
  from: string;
  to: string;
  at: string;
  atMs: number;
  summary: string | null;
  /** Position in the inbox, for stable ids. */
  index: number;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null;
}

/** Parses a team file (rule TF1); `folder` names the team when the file does not. */
export function parseTeamFile(source: string, folder: string): { ok: true; team: TeamFile } | { ok: false; reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    return { ok: false, reason: `the team file of ${folder} is not JSON (${(error as Error).message.split('\n')[0]}).` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: `the team file of ${folder} is not an object.` };
  const record = data as Record<string, unknown>;
  if (!Array.isArray(record.members)) return { ok: false, reason: `the team file of ${folder} has no members list.` };
  const members: TeamFileMember[] = [];
  let skipped = 0;
  for (const entry of record.members) {
    const member = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const name = text(member.name);
    if (name === null) {
      skipped += 1;
      continue;
    }
    members.push({ name, agentId: text(member.agentId) ?? name, colour: text(member.color), sessionId: text(member.sessionId) });
  }
  return {
    ok: true,
    team: { name: text(record.name) ?? folder, leadAgentId: text(record.leadAgentId), leadSessionId: text(record.leadSessionId), members, skipped },
  };
}

/** One line, at most 60 characters (rule TF3). */
export function shortSummary(value: unknown): string | null {
  const line = text(value)?.replace(/\s+/g, ' ');
  if (!line) return null;
  const characters = Array.from(line);
  return characters.length <= MESSAGE_SUMMARY_MAX ? line : `${characters.slice(0, MESSAGE_SUMMARY_MAX - 1).join('')}…`;
}

/** Parses one inbox (rule TF2): the labels of its messages to `owner`, and how many entries were skipped. */
export function parseInbox(source: string, owner: string): { ok: true; messages: InboxLabel[]; skipped: number } | { ok: false; reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    return { ok: false, reason: `the inbox of ${owner} is not JSON (${(error as Error).message.split('\n')[0]}).` };
  }
  if (!Array.isArray(data)) return { ok: false, reason: `the inbox of ${owner} is not a list.` };
  const messages: InboxLabel[] = [];
  let skipped = 0;
  data.forEach((entry, index) => {
    const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const from = text(record.from);
    const at = text(record.timestamp);
    const atMs = at === null ? Number.NaN : Date.parse(at);
    if (from === null || at === null || Number.isNaN(atMs)) {
      skipped += 1;
      return;
    }
    messages.push({ from, to: owner, at: new Date(atMs).toISOString(), atMs, summary: shortSummary(record.summary), index });
  });
  return { ok: true, messages, skipped };
}

/** The most recent messages of a team, oldest first (rule TF4). */
export function recentMessages(messages: readonly InboxLabel[], max = TEAM_MESSAGES_MAX): InboxLabel[] {
  return messages
    .map((message, order) => ({ message, order }))
    .sort((first, second) => first.message.atMs - second.message.atMs || first.order - second.order)
    .slice(-max)
    .map(({ message }) => message);
}
