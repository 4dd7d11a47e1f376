/**
 * The light card shown while the pointer is on a character or keyboard focus is on it: the agent card's header
 * (name, role, harness, folder), its activity with label and since, the note when that activity is inferred, and
 * its running subagents, and its token usage (model, context used / window, session totals, cost, skipped records).
 * `hoverCardFacts` is pure; `HoverCard` only places and fills one element.
 * The accessible mirror points at it (`aria-describedby`), so a screen reader hears the same card on focus.
 */
import { clockMinutesText } from '../../shared/usagePhrases';
import { placeAt, uiZoom } from './uiScale';
import { activityPhrase, elapsedPhrase } from '../../shared/activity';
import { driftPhrase } from '../../shared/drift';
import { limitedText } from '../../shared/limits';
import type { Activity, FleetSnapshot } from '../../shared/schemas';
import { usageLines, type UsageLines } from '../../shared/usagePhrases';
import { contextGauge, type ContextLevel } from '../world/contextBar';
import { agentCardFacts, AgentCardHeader, type AgentCardFacts } from './agentCard';
import { element } from './dom';

/** The id of the card element, for `aria-describedby`. */
export const HOVER_CARD_ID = 'agent-hover-card';
/** Running subagents named on the card; more are counted. */
const SUBAGENTS_SHOWN = 4;

/** Everything the card shows for one agent. */
export interface HoverCardFacts extends AgentCardFacts {
  activity: string;
  state: Activity['state'];
  since: string;
  /** Why the activity is a guess, when it is one. */
  note: string | null;
  /** "3 subagents running: …", "no subagents running", or "subagents unknown". */
  subagents: string;
  /** The seat's token usage in words (each figure it lacks said to be unknown). */
  usage: UsageLines;
  /** The context bar's level, as the world draws it. */
  contextLevel: ContextLevel;
  /** The drift mark's sentence (which kinds are unknown; counts may be incomplete), or null (issue 29). */
  drift?: string | null;
  /** "limited until HH:MM" while the harness said a usage limit was reached (issue 41), or null. */
  limit?: string | null;
}

/** How the card says an inferred activity is a guess. */
export function uncertaintyNote(activity: Activity): string | null {
  if (activity.certain) return null;
  if (activity.state === 'needs-you' && activity.why === 'approval') return 'inferred: a long-running command looks the same as a permission prompt';
  if (activity.state === 'needs-you' && activity.why === 'turn-done') return 'inferred: quiet after speaking; a tool call may still follow';
  if (activity.state === 'idle') return 'inferred: nothing in the records says what it is doing';
  if (activity.state === 'unknown') return null;
  return 'inferred from the records, not stated in them';
}

/** "for 3 min" within the hour, "since 14:02" beyond it, "since unknown" without a time. */
export function sincePhrase(since: string | null, nowMs: number): string {
  const elapsed = elapsedPhrase(since, nowMs);
  if (!elapsed || since === null) return 'since unknown';
  const ms = Date.parse(since);
  if (nowMs - ms < 3_600_000) return `for ${elapsed}`;
  return `since ${clockMinutesText(ms)}`;
}

/** The card of one agent, or null when the agent is not in the snapshot. */
export function hoverCardFacts(fleet: FleetSnapshot | null, personaId: string, nowMs: number): HoverCardFacts | null {
  const facts = agentCardFacts(fleet, personaId);
  if (!facts) return null;
  const seat = fleet?.seats.find((entry) => entry.personaId === personaId);
  const activity: Activity = seat?.activity ?? { state: 'unknown', certain: false, since: null };
  const summary = seat?.subagents;
  let subagents = 'subagents unknown';
  if (summary) {
    const running = summary.recent.filter((entry) => entry.state === 'running').map((entry) => entry.label);
    const named = running.slice(0, SUBAGENTS_SHOWN).join(', ');
    // Every running subagent is accounted for: those the summary does not list (or the card has no room for) as "+N more".
    const unnamed = summary.running - Math.min(running.length, SUBAGENTS_SHOWN);
    const more = unnamed > 0 ? `, +${unnamed} more` : '';
    subagents = summary.running === 0 ? 'no subagents running' : `${summary.running} ${summary.running === 1 ? 'subagent' : 'subagents'} running${named ? `: ${named}${more}` : ''}`;
  }
  return {
    ...facts,
    // An agent whose host cannot be reached says so, and since when (its activity is its last known one).
    activity: seat?.unreachableSince ? 'unreachable' : activityPhrase(activity),
    state: activity.state,
    since: seat?.unreachableSince ? `since ${clockMinutesText(seat.unreachableSince)}` : sincePhrase(activity.since, nowMs),
    note: uncertaintyNote(activity),
    subagents,
    usage: usageLines(seat?.usage),
    contextLevel: contextGauge(seat?.usage).level,
    drift: driftPhrase(seat?.drift),
    limit: limitedText(seat?.usage?.limits, nowMs),
  };
}

/** A page rectangle. */
export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The card element: `show` fills and places it beside the agent, `hide` hides it. */
export class HoverCard {
  readonly root: HTMLElement;
  private readonly header = new AgentCardHeader();
  private readonly activity = element('p', { class: 'hover-card-activity', 'data-card-activity': true });
  private readonly note = element('p', { class: 'hover-card-note', 'data-card-uncertain': true });
  private readonly subagents = element('p', { class: 'hover-card-subagents', 'data-card-subagents': true });
  private readonly usage = {
    asOf: element('p', { 'data-card-usage-as-of': true }),
    model: element('p', { 'data-card-model': true }),
    context: element('p', { 'data-card-context': true }),
    totals: element('p', { 'data-card-totals': true }),
    cost: element('p', { 'data-card-cost': true }),
    withSubagents: element('p', { 'data-card-with-subagents': true }),
    skipped: element('p', { 'data-card-skipped': true }),
    models: element('p', { 'data-card-models': true }),
  };
  private readonly drift = element('p', { class: 'hover-card-note', 'data-card-drift': true, hidden: true });
  private readonly limit = element('p', { class: 'hover-card-note', 'data-card-limit': true, hidden: true });
  /** The agent shown, or null. */
  shown: string | null = null;

  constructor() {
    const usage = element('div', { class: 'hover-card-usage', 'data-card-usage': true }, ...Object.values(this.usage));
    this.root = element('aside', { id: HOVER_CARD_ID, class: 'hover-card', role: 'tooltip', 'data-hover-card': true, hidden: true }, this.header.root, this.activity, this.note, this.subagents, this.drift, this.limit, usage);
  }

  /** Shows the card of `facts` next to `box` (page pixels), or hides it when there is nothing to show. */
  show(facts: HoverCardFacts | null, box: PageBox | null): void {
    if (!facts) return this.hide();
    this.shown = facts.personaId;
    this.root.dataset.cardAgent = facts.personaId;
    this.root.dataset.cardActivityState = facts.state;
    this.header.update(facts);
    setText(this.activity, `${facts.activity} · ${facts.since}`);
    this.note.hidden = facts.note === null;
    setText(this.note, facts.note ?? '');
    setText(this.subagents, facts.subagents);
    this.root.dataset.cardContextLevel = facts.contextLevel;
    for (const [name, node] of Object.entries(this.usage)) {
      const text = facts.usage[name as keyof UsageLines];
      node.hidden = text === null;
      setText(node, text ?? '');
    }
    this.drift.hidden = !facts.drift;
    setText(this.drift, facts.drift ?? '');
    this.limit.hidden = !facts.limit;
    setText(this.limit, facts.limit ?? '');
    this.root.hidden = false;
    if (box) {
      // Right of the character, kept inside the window (left of it when there is no room).
      // Measured on the page (the card is drawn zoomed with the panels, see uiScale.ts).
      const measured = this.root.getBoundingClientRect();
      const width = measured.width || 240 * uiZoom();
      const height = measured.height || 96 * uiZoom();
      // The box is the character; its name plate (and host tag) reach wider: keep clear of them too.
      const plate = box.width;
      const right = box.x + box.width + plate + 8;
      const leftSide = Math.max(4, box.x - plate - width - 8);
      const top = Math.min(Math.max(4, box.y), Math.max(4, innerHeight - height - 4));
      // Never over an open tray: take the other side when the tray is on this one.
      const tray = document.querySelector<HTMLElement>('[data-panel="tray"]:not([hidden])')?.getBoundingClientRect();
      const covers = (left: number) => tray !== undefined && left < tray.right && left + width > tray.left && top < tray.bottom && top + height > tray.top;
      let left = right + width > innerWidth - 4 || covers(right) ? leftSide : right;
      if (covers(left) && !covers(right) && right + width <= innerWidth - 4) left = right;
      if (covers(left)) return this.hide(); // no side clear of the tray: the tray is what the owner reads
      placeAt(this.root, left, top);
    }
  }

  hide(): void {
    this.shown = null;
    this.root.hidden = true;
    delete this.root.dataset.cardAgent;
  }
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
