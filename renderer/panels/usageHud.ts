/**
 * The fleet HUD line: tokens and cost today (since local midnight) and for the open seats, with "≥" while any seat's
 * totals are partial and a note when some seats have no price. One small line in the corner, changed only when the
 * fleet's usage line changes (its object is kept across fleet changes that leave it alone).
 */
import { inPast } from '../store/historyActions';
import { AT_LEAST_MEANING, clockMinutesText, ESTIMATED_MEANING } from '../../shared/usagePhrases';
import type { FleetSnapshot } from '../../shared/schemas';
import type { FleetUsage } from '../../shared/usage';
import { notCountedText, sumText, totalTokens } from '../../shared/usagePhrases';
import type { AppStore } from '../store/createAppStore';
import { element, setAttribute, setText } from './dom';

/** What the HUD says when the fleet reports no usage at all (no seat has any): unknown, never 0. */
export const HUD_UNKNOWN = 'Tokens and cost: unknown';

/** The HUD's text for a fleet's usage line. */
export function hudText(usage: FleetUsage | undefined): string {
  if (!usage) return HUD_UNKNOWN;
  const hosts = usage.unknownHosts ?? [];
  if (hosts.length === 0) return `Today ${sumText(usage.today)} | Open seats ${sumText(usage.open)}`;
  // Nothing known anywhere: unknown, with the hosts that could not say (never "≥0 tok").
  if (totalTokens(usage.today.totals) === 0 && totalTokens(usage.open.totals) === 0) return `${HUD_UNKNOWN} (${hosts.join(', ')} not counted)`;
  return `Today ${sumText(usage.today)} | Open seats ${sumText(usage.open)} | ${notCountedText(hosts)}`;
}

/** Seats without a price in either sum (the larger count: open seats are part of today's). */
export function unpricedSeats(usage: FleetUsage | undefined): number {
  return usage ? Math.max(usage.today.unpriced, usage.open.unpriced) : 0;
}

/** The HUD element, following the store. */
export class UsageHud {
  readonly root = element('p', { class: 'usage-hud pixel-panel', 'data-panel': 'usage-hud', 'data-usage-hud': true, 'aria-live': 'off' });
  private shown: FleetSnapshot['usage'] | null = null;
  private first = true;
  private past = false;

  constructor(store: AppStore) {
    this.root.hidden = true;
    const render = () => {
      const state = store.getState();
      const fleet = state.fleet;
      if (!fleet) return;
      const past = inPast(state);
      if (!this.first && fleet.usage === this.shown && past === this.past) return;
      this.first = false;
      this.shown = fleet.usage;
      this.past = past;
      this.show(fleet.usage);
    };
    store.subscribe(render);
    render();
  }

  private show(usage: FleetUsage | undefined): void {
    this.root.hidden = false;
    // The timeline does not replay usage: in the past view the line says it is today's, live.
    setText(this.root, this.past ? `Live, not as of the past: ${hudText(usage)}` : hudText(usage));
    setAttribute(this.root, 'data-usage-live-in-past', String(this.past));
    setAttribute(this.root, 'data-usage-known', String(usage !== undefined));
    setAttribute(this.root, 'data-usage-partial', String(usage ? usage.today.partial || usage.open.partial : false));
    setAttribute(this.root, 'data-usage-unpriced', String(unpricedSeats(usage)));
    setAttribute(this.root, 'data-usage-unknown-hosts', (usage?.unknownHosts ?? []).join(' '));
    setAttribute(this.root, 'title', usage ? `Today is since ${clockMinutesText(usage.since)}. ${AT_LEAST_MEANING}. ${ESTIMATED_MEANING}. Unpriced agents' tokens are counted, their cost is not.` : 'No seat reports token usage.');
  }
}
