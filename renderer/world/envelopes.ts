/**
 * Messages between agents (team inboxes, and messages between sessions outside a team) as envelopes that walk from sender to recipient. Pure: which messages start
 * an envelope, and where an envelope is along its way. Labels only — an envelope knows who, to whom, when and the
 * summary, never a body.
 *
 * Rule E1: the first snapshot primes the tracker; only messages that appear later start an envelope (opening the
 *          world does not replay old mail).
 * Rule E2: an envelope walks only between two agents in the world; a message whose sender or recipient is not
 *          an agent here is recorded as delivered without walking.
 * Rule E3: an envelope takes ENVELOPE_WALK_MS to arrive; with reduced motion it arrives at once.
 * Rule E4: one snapshot starts at most WALKS_PER_SYNC envelopes (its newest messages); a burst of older mail, such as
 *          a team that just appeared, is recorded as delivered.
 */
import type { AgentMessage, Team } from '../../shared/schemas';

/** Time an envelope takes from sender to recipient, in milliseconds. */
export const ENVELOPE_WALK_MS = 2400;
/** Envelopes one snapshot may start walking (rule E4). */
export const WALKS_PER_SYNC = 3;
/** Delivered envelopes remembered for the page hook. */
export const DELIVERED_KEEP = 20;

/** One envelope: the message's labels and its progress (0 at the sender, 1 delivered). */
export interface Envelope {
  id: string;
  team: string | null;
  from: string;
  to: string;
  at: string;
  summary: string | null;
  fromPersonaId: string | null;
  toPersonaId: string | null;
  walks: boolean;
  progress: number;
}

/** Decides which messages start envelopes (rules E1, E2) and advances them (rule E3). */
export class EnvelopeTracker {
  private primed = false;
  private readonly seen = new Set<string>();
  readonly walking: Envelope[] = [];
  readonly delivered: Envelope[] = [];

  /** Takes the teams and the cross-session messages of a snapshot; returns the envelopes started by it. */
  sync(teams: readonly Team[] | undefined, present: (personaId: string) => boolean, reducedMotion: boolean, sessions: readonly AgentMessage[] = []): Envelope[] {
    const messages: AgentMessage[] = [...(teams ?? []).flatMap((team) => team.messages), ...sessions];
    const started: Envelope[] = [];
    const fresh = messages.filter((message) => !this.seen.has(message.id));
    for (const message of fresh) this.seen.add(message.id);
    const burst = this.primed ? fresh.sort((first, second) => first.at.localeCompare(second.at)) : [];
    for (const [index, message] of burst.entries()) {
      const newest = index >= burst.length - WALKS_PER_SYNC;
      const walks = newest && message.fromPersonaId !== null && message.toPersonaId !== null && message.fromPersonaId !== message.toPersonaId && present(message.fromPersonaId) && present(message.toPersonaId);
      const envelope: Envelope = { ...message, walks, progress: walks && !reducedMotion ? 0 : 1 };
      started.push(envelope);
      if (envelope.progress < 1) this.walking.push(envelope);
      else this.deliver(envelope);
    }
    this.primed = true;
    // Ids of messages that left the bounded window may come back only as new messages; forget the rest.
    if (this.seen.size > 4 * Math.max(1, messages.length) + 200) {
      const current = new Set(messages.map((message) => message.id));
      for (const id of this.seen) if (!current.has(id)) this.seen.delete(id);
    }
    return started;
  }

  /** Moves every walking envelope on by `deltaMs`; returns the ones that arrived. */
  advance(deltaMs: number): Envelope[] {
    const arrived: Envelope[] = [];
    for (const envelope of this.walking) {
      envelope.progress = Math.min(1, envelope.progress + deltaMs / ENVELOPE_WALK_MS);
      if (envelope.progress >= 1) arrived.push(envelope);
    }
    for (const envelope of arrived) {
      this.walking.splice(this.walking.indexOf(envelope), 1);
      this.deliver(envelope);
    }
    return arrived;
  }

  private deliver(envelope: Envelope): void {
    this.delivered.push(envelope);
    if (this.delivered.length > DELIVERED_KEEP) this.delivered.shift();
  }
}

/** A point along the way: a low arc over the floor between the two agents' heads. */
export function envelopePoint(from: { x: number; y: number }, to: { x: number; y: number }, progress: number): { x: number; y: number } {
  const t = Math.min(1, Math.max(0, progress));
  const lift = Math.sin(Math.PI * t) * 18;
  return { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t - lift };
}
