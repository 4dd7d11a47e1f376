/**
 * One row of the tray, built once per entry id and updated in place: its label (a button when replayable), its
 * facts (state, kind, times, "earlier" or "pinned"), why it cannot be replayed, and the replay pane when expanded.
 */
import type { SubagentEntry } from '../../shared/schemas';
import { clockTime, duration, element } from './dom';
import type { ReplayPane } from './replayPane';

/** Which list a row belongs to. */
export type RowKind = 'recent' | 'earlier' | 'pinned';

/** The stable key of an entry: its native id, else its label and position (count-only entries). */
export function rowKey(entry: SubagentEntry, index: number): string {
  return entry.nativeId ?? `#${index}:${entry.label}`;
}

/** The facts line of an entry as text parts (for the row and for tests). */
export function entryFacts(entry: SubagentEntry, kind: RowKind, now = Date.now()): { state: string; time: string; marker: string | null } {
  const state = entry.state === 'running' ? 'running' : `ended${entry.outcome && entry.outcome !== 'unknown' ? ` (${entry.outcome})` : ''}`;
  const started = entry.startedAt === '' ? 'time unknown' : clockTime(entry.startedAt);
  const time = entry.startedAt === '' ? started : `${started} · ${duration(entry.startedAt, entry.endedAt, now)}${entry.endedAtEstimated ? ' (estimated)' : ''}`;
  const marker = kind === 'earlier' ? 'earlier' : kind === 'pinned' ? 'pinned: no longer among the recent' : null;
  return { state, time, marker };
}

/** A tray row. */
export class TrayRow {
  readonly root: HTMLLIElement;
  entry: SubagentEntry | null = null;
  /** The entry's job alias (`explore-3`), or null when it has none yet. */
  alias: string | null = null;
  private title: HTMLElement | null = null;
  private readonly aliasText = element('span', { class: 'alias', 'data-alias': true });
  private readonly stateText = element('span', { class: 'state' });
  private readonly kindText = element('span', { class: 'kind' });
  private readonly timeText = element('span', { class: 'time' });
  private readonly markerText = element('span', { class: 'marker' });
  private readonly note = element('p', { class: 'muted replay-note', 'data-replay-note': true });
  private readonly slot = element('div', { class: 'replay-slot' });
  private signature = '';

  constructor(
    readonly key: string,
    private readonly handlers: { toggle(nativeId: string): void },
  ) {
    this.root = element('li', { 'data-subagent': key });
    this.note.hidden = true;
    this.slot.hidden = true;
    this.aliasText.hidden = true;
    this.root.append(element('span', { class: 'facts' }, this.aliasText, this.stateText, this.kindText, this.timeText, this.markerText), this.note, this.slot);
  }

  /** Shows an entry; nothing is rebuilt unless its data changed, and the title element survives label changes. */
  update(entry: SubagentEntry, kind: RowKind, expanded: boolean, note: string | null, alias: string | null = null): void {
    const replayable = entry.replayable && entry.nativeId !== null;
    const signature = JSON.stringify([entry, kind, note, alias]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.entry = entry;
      this.alias = alias;
      setText(this.aliasText, alias ?? '');
      this.aliasText.hidden = alias === null;
      this.ensureTitle(replayable, entry);
      const facts = entryFacts(entry, kind);
      setText(this.stateText, facts.state);
      this.stateText.className = `state state-${entry.state}`;
      setText(this.kindText, entry.kind ?? '');
      this.kindText.hidden = entry.kind === null;
      setText(this.timeText, facts.time);
      setText(this.markerText, facts.marker ?? '');
      this.markerText.hidden = facts.marker === null;
      setText(this.note, note ?? '');
      this.note.hidden = note === null;
      this.root.dataset.state = entry.state;
      this.root.toggleAttribute('data-earlier', kind === 'earlier');
      this.root.toggleAttribute('data-pinned', kind === 'pinned');
    }
    if (this.title instanceof HTMLButtonElement) this.title.setAttribute('aria-expanded', expanded ? 'true' : 'false');
  }

  /** Puts a replay pane (and its collapse button) under the row. */
  mountPane(pane: ReplayPane, collapse: () => void): void {
    const button = element('button', { type: 'button', class: 'collapse', 'data-collapse': true, onclick: collapse }, 'Collapse');
    this.slot.replaceChildren();
    pane.mount(this.slot);
    this.slot.append(button);
    this.slot.hidden = false;
  }

  /** Empties the pane slot. */
  unmountPane(): void {
    this.slot.replaceChildren();
    this.slot.hidden = true;
  }

  private ensureTitle(replayable: boolean, entry: SubagentEntry): void {
    const wantButton = replayable;
    if (this.title && (this.title instanceof HTMLButtonElement) === wantButton) {
      setText(this.title, entry.label);
      if (wantButton) this.title.dataset.replay = entry.nativeId!;
      return;
    }
    const title = wantButton
      ? element('button', { type: 'button', class: 'label', 'data-replay': entry.nativeId!, 'aria-expanded': 'false', onclick: () => this.handlers.toggle(entry.nativeId!) }, entry.label)
      : element('span', { class: 'label', 'data-count-only': true }, entry.label);
    if (this.title) this.title.replaceWith(title);
    else this.root.prepend(title);
    this.title = title;
  }
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
