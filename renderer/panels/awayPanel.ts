/**
 * "While you were away": the digest of what happened while the window was away, shown when the owner comes back
 * after long enough (and only when something happened). Each entry is a button that centres the view on its agent;
 * Escape or Close dismisses the panel. Entries carry `data-away-entry` (the persona id) and `data-kind`.
 */
import type { AppStore } from '../store/createAppStore';
import type { AwayDigest } from '../store/appState';
import { digestLine, digestSummary } from '../history/digest';
import { clockLabel } from '../history/timelineGeometry';
import { element, present } from './dom';
import { closeOnEscape, keepTabInside } from './panelKeys';
import { pixelTitle } from './pixelTitle';

/** The panel; `pick` centres the view on an agent (as the needs-you strip does). */
export class AwayPanel {
  readonly root: HTMLElement;
  private shown: AwayDigest | null = null;

  constructor(
    private readonly store: AppStore,
    private readonly pick: (personaId: string) => void,
  ) {
    this.root = element('aside', { 'data-panel': 'away', class: 'panel away', role: 'dialog', 'aria-label': 'While you were away', hidden: true });
    closeOnEscape(this.root, () => store.getState().actions.dismissAway());
    keepTabInside(this.root);
    store.subscribe((state) => this.sync(state.history.away));
    this.sync(store.getState().history.away);
  }

  private sync(away: AwayDigest | null): void {
    if (away === this.shown) return;
    this.shown = away;
    this.root.hidden = away === null;
    if (away === null) return void this.root.replaceChildren();
    const { actions } = this.store.getState();
    // Grouped per agent, each group where its first (most pressing) entry falls in the panel's order. A click shows
    // the agent and closes the panel, which would otherwise cover it.
    const groups = new Map<string, { name: string; lines: ReturnType<typeof digestLine>[] }>();
    for (const entry of away.entries) {
      const line = digestLine(entry);
      const group = groups.get(line.personaId) ?? { name: entry.name, lines: [] };
      group.lines.push(line);
      groups.set(line.personaId, group);
    }
    const show = (personaId: string) => {
      actions.dismissAway();
      this.pick(personaId);
    };
    const buttons = [...groups].map(([personaId, group]) =>
      element(
        'li',
        { class: 'away-agent', 'data-away-agent': personaId },
        element('h3', {}, group.name),
        element(
          'ul',
          {},
          ...group.lines.map((line) =>
            element(
              'li',
              {},
              element(
                'button',
                { type: 'button', class: `away-entry away-${line.kind}`, 'data-away-entry': line.personaId, 'data-kind': line.kind, title: 'Show this agent', onclick: () => show(line.personaId) },
                element('span', { class: 'away-text' }, line.text),
                line.detail ? element('span', { class: 'away-detail muted' }, line.detail) : null,
              ),
            ),
          ),
        ),
      ),
    );
    // The entries past the bound are in the timeline: "and N more" opens it (the panel steps aside).
    const more = () => {
      actions.dismissAway();
      if (!this.store.getState().history.timelineOpen) actions.toggleTimeline();
    };
    this.root.replaceChildren(
      ...present(
      element('header', {}, pixelTitle('While you were away'), element('button', { type: 'button', class: 'close', onclick: () => actions.dismissAway() }, 'Close')),
      element('p', { class: 'away-summary', 'data-away-summary': true }, `Since ${clockLabel(away.sinceMs)}: ${digestSummary(away.totals)}`),
      element('ol', { class: 'away-entries' }, ...buttons),
      away.more > 0 ? element('button', { type: 'button', class: 'away-more', 'data-away-more': away.more, onclick: more }, `and ${away.more.toLocaleString('en-US')} more: open the timeline`) : null,
    ));
    // The panel takes the focus, so Escape dismisses it at once.
    (this.root.querySelector('button.away-entry') as HTMLElement | null)?.focus();
  }
}
