/**
 * Messages between sessions the owner opened (outside team inboxes), as labels only. Pure: one journal line → a
 * message fact, and the facts of every addressed Claude seat → the messages to show. Shapes and what rests on them
 * are in TEAMS.md beside this file.
 *
 * Rule SM1: an assistant line's `SendMessage` tool call is a sent message; its recipient is `input.to` (older
 *           builds: `input.recipient`), its summary `input.summary` when present (one line, ≤ 60 characters).
 *           The message body (`message`, `content`) is never read.
 * Rule SM2: a user line whose text opens with `<teammate-message teammate_id="…" summary="…">` is a receipt; only
 *           the tag's two attributes are read, never the text inside it. **[unverified for separate sessions]**
 * Rule SM3: a message is shown only when both ends are addressed seats: the recipient (or sender) is named by its
 *           session id or by its persona's name (case-insensitive; a leading `@` and an `@team` suffix are ignored).
 * Rule SM4: a message inside a team whose inboxes are read already is left to the inbox (no second envelope); a
 *           receipt is the same message as a call in view with the same ends and summary made up to 10 minutes
 *           before it, and is not shown twice.
 * Rule SM5: the 50 most recent messages are kept per seat and in the snapshot.
 */
import type { AgentMessage, Team } from '../../../shared/schemas';
import { shortSummary } from './teamFiles';

/** Messages kept per seat and in the snapshot (rule SM5). */
export const SESSION_MESSAGES_MAX = 50;

/** One message fact read from a seat's journal (labels only). */
export type SessionMessageFact =
  | { kind: 'sent'; id: string; at: string; to: string; summary: string | null }
  | { kind: 'received'; id: string; at: string; from: string; summary: string | null };

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

const RECEIPT = /^\s*<teammate-message\b([^>]{0,600})>/;

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\b${name}="([^"]{0,400})"`).exec(tag);
  return match ? match[1] : null;
}

/** The facts of one journal line (rules SM1, SM2); empty for every other line. */
export function parseMessageLine(line: string): SessionMessageFact[] {
  if (!mayHoldMessage(line)) return [];
  let record: Json | null;
  try {
    record = object(JSON.parse(line));
  } catch {
    return [];
  }
  return record ? messageFactsOf(record) : [];
}

/** True unless the line mentions neither `SendMessage` nor a receipt tag: the cheap guard before any parse. */
export function mayHoldMessage(line: string): boolean {
  return line.includes('SendMessage') || line.includes('<teammate-message');
}

/** The facts of a journal line already parsed (rules SM1, SM2), for a reader that parses each line once. */
export function messageFactsOf(record: Json): SessionMessageFact[] {
  const at = text(record.timestamp);
  const atMs = at === null ? Number.NaN : Date.parse(at);
  if (Number.isNaN(atMs)) return [];
  const iso = new Date(atMs).toISOString();
  const message = object(record.message);
  const content = message?.content;
  if (record.type === 'assistant' && Array.isArray(content)) {
    const facts: SessionMessageFact[] = [];
    for (const part of content.map(object)) {
      if (!part || part.type !== 'tool_use' || part.name !== 'SendMessage') continue;
      const input = object(part.input) ?? {};
      const to = text(input.to) ?? text(input.recipient);
      const id = text(part.id);
      if (to === null || id === null) continue;
      facts.push({ kind: 'sent', id, at: iso, to, summary: shortSummary(input.summary) });
    }
    return facts;
  }
  if (record.type === 'user' && record.isSidechain !== true) {
    const first = typeof content === 'string' ? content : Array.isArray(content) ? text(object(content[0])?.text) : null;
    const tag = first ? RECEIPT.exec(first) : null;
    const from = tag ? attribute(tag[1], 'teammate_id') : null;
    if (!tag || !from) return [];
    return [{ kind: 'received', id: text(record.uuid) ?? `${atMs}`, at: iso, from, summary: shortSummary(attribute(tag[1], 'summary')) }];
  }
  return [];
}

/** Keeps a seat's most recent facts (rule SM5), oldest first. */
export function keepRecent(facts: SessionMessageFact[]): SessionMessageFact[] {
  return facts.length > SESSION_MESSAGES_MAX ? facts.slice(-SESSION_MESSAGES_MAX) : facts;
}

/** An addressed Claude seat with its persona's name and its message facts. */
export interface MessageSeat {
  seatId: string;
  personaId: string;
  name: string;
  sessionId: string;
  facts: readonly SessionMessageFact[];
}

function addressKey(value: string): string {
  return value.trim().replace(/^@/, '').replace(/@[^@]*$/, '').toLowerCase();
}

/** How long after a call its receipt may be recorded and still be taken for it, in ms (rule SM4). */
const RECEIPT_WINDOW_MS = 10 * 60_000;

/** True when a sent call (same ends and summary, at most RECEIPT_WINDOW_MS earlier) explains the receipt; uses it up. */
function matchesCall(unmatched: Map<string, number[]>, key: string, atMs: number): boolean {
  const times = unmatched.get(key) ?? [];
  const index = times.findIndex((sentMs) => sentMs <= atMs && atMs - sentMs <= RECEIPT_WINDOW_MS);
  if (index < 0) return false;
  times.splice(index, 1);
  return true;
}

/** The messages between addressed seats (rules SM3–SM5), oldest first. */
export function crossSessionMessages(seats: readonly MessageSeat[], teams: readonly Team[]): AgentMessage[] {
  const bySession = new Map(seats.map((seat) => [seat.sessionId.toLowerCase(), seat]));
  const byName = new Map<string, MessageSeat | null>();
  for (const seat of seats) {
    const key = addressKey(seat.name);
    // Two seats with the same name cannot tell a recipient apart: neither is matched by name.
    byName.set(key, byName.has(key) ? null : seat);
  }
  const find = (address: string, self: MessageSeat) => {
    const seat = bySession.get(address.trim().toLowerCase()) ?? byName.get(addressKey(address)) ?? null;
    return seat && seat.seatId !== self.seatId ? seat : null;
  };
  // Rule SM4: a persona in a team whose inboxes are read sends to its teammates through those inboxes.
  const teamNames = new Map<string, Set<string>>();
  for (const team of teams) {
    const names = new Set(team.members.map((member) => addressKey(member.name)));
    for (const id of [team.leadPersonaId, ...team.members.map((member) => member.personaId)]) if (id) teamNames.set(id, new Set([...(teamNames.get(id) ?? []), ...names]));
  }
  const inTeam = (seat: MessageSeat, address: string) => teamNames.get(seat.personaId)?.has(addressKey(address)) ?? false;
  const messages: AgentMessage[] = [];
  // Sent calls by sender, recipient and summary, each matched by at most one receipt (rule SM4).
  const unmatched = new Map<string, number[]>();
  for (const sender of seats) {
    for (const fact of sender.facts) {
      if (fact.kind !== 'sent' || inTeam(sender, fact.to)) continue;
      const recipient = find(fact.to, sender);
      if (!recipient) continue;
      const key = `${sender.seatId}>${recipient.seatId}>${fact.summary ?? ''}`;
      unmatched.set(key, [...(unmatched.get(key) ?? []), Date.parse(fact.at)]);
      messages.push({ id: `session:${sender.seatId}:${fact.id}`, team: null, from: sender.name, to: recipient.name, at: fact.at, summary: fact.summary, fromPersonaId: sender.personaId, toPersonaId: recipient.personaId });
    }
  }
  for (const recipient of seats) {
    for (const fact of recipient.facts) {
      if (fact.kind !== 'received' || inTeam(recipient, fact.from)) continue;
      const sender = find(fact.from, recipient);
      if (!sender || matchesCall(unmatched, `${sender.seatId}>${recipient.seatId}>${fact.summary ?? ''}`, Date.parse(fact.at))) continue;
      messages.push({ id: `session-in:${recipient.seatId}:${fact.id}`, team: null, from: sender.name, to: recipient.name, at: fact.at, summary: fact.summary, fromPersonaId: sender.personaId, toPersonaId: recipient.personaId });
    }
  }
  return messages.sort((first, second) => first.at.localeCompare(second.at)).slice(-SESSION_MESSAGES_MAX);
}
