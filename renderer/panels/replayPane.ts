/**
 * The replay pane: one subagent's conversation, oldest at the top and newest at the bottom, reconciled by line key.
 * It opens scrolled to the newest line; new lines are followed only when the reader is already at the bottom
 * (otherwise a "new entries ↓" marker appears); older pages load when scrolling up, keeping the visible line in
 * place. It knows no store: any panel mounts it, feeds it `update(replay)` and disposes it.
 */
import type { SubagentEntry } from '../../shared/schemas';
import type { ReplayState } from '../store/appState';
import { element } from './dom';
import { replayRow } from './replayRow';

/** Pixels from the top of the log at which older pages load. */
const OLDER_THRESHOLD = 24;
/** Pixels from the bottom that still count as "at the bottom". */
const BOTTOM_SLACK = 8;

/** What the pane calls back for. */
export interface ReplayPaneOptions {
  /** Accessible name of the log, e.g. "Replay of Fix the parser". */
  label: string;
  /** Asks for the next older page (the pane calls it when the owner scrolls near the top). */
  loadOlder(): void;
}

/** The child's state as a short text: from the replay while it reads, else from the listed entry. */
export function childStateText(replay: Pick<ReplayState, 'status' | 'running'>, entry: SubagentEntry | null): string {
  if (replay.status === 'ok' && replay.running) return 'running';
  if (entry?.state === 'running') return 'running';
  if (entry?.state === 'ended') return `ended${entry.outcome ? ` (${entry.outcome})` : ''}`;
  return replay.status === 'ok' ? 'ended' : 'state unknown';
}

/** The mountable replay pane. */
export class ReplayPane {
  readonly root: HTMLElement;
  /** The scrolling log of lines (`[data-replay-log]`). */
  readonly log: HTMLElement;
  private readonly state = element('span', { class: 'replay-state', 'data-replay-state': true });
  private readonly alias = element('span', { class: 'replay-alias', 'data-replay-alias': true });
  private readonly notice = element('p', { class: 'muted replay-notice' });
  private readonly older = element('button', { type: 'button', class: 'replay-older', 'data-older': true }, 'Load older');
  private readonly lines = element('div', { class: 'replay-lines' });
  private readonly marker = element('button', { type: 'button', class: 'replay-new', 'data-new-entries': true }, 'new entries ↓');
  private readonly rows = new Map<number, HTMLElement>();
  private shown: ReplayState | null = null;
  private opened = false;

  constructor(private readonly options: ReplayPaneOptions) {
    this.log = element('div', { class: 'replay', 'data-replay-log': true, role: 'log', tabindex: 0, 'aria-label': options.label }, this.older, this.notice, this.lines);
    this.marker.hidden = true;
    this.older.hidden = true;
    this.notice.hidden = true;
    this.alias.hidden = true;
    this.root = element('div', { class: 'replay-pane', 'data-replay-pane': true }, element('p', { class: 'replay-head' }, 'Child: ', this.alias, this.state), this.log, this.marker);
    this.log.addEventListener('scroll', this.onScroll);
    this.older.addEventListener('click', () => options.loadOlder());
    this.marker.addEventListener('click', () => this.scrollToBottom());
  }

  /** Inserts the pane into a parent (before `before` when given). */
  mount(parent: Node, before: Node | null = null): void {
    parent.insertBefore(this.root, before);
  }

  /** Names the child by its job alias in the header (`explore-3`), or hides the name when it has none. */
  setAlias(alias: string | null): void {
    setText(this.alias, alias ?? '');
    this.alias.hidden = alias === null;
  }

  /** Shows a replay state; only rows whose keys are new are built, and the reading place is kept. */
  update(replay: ReplayState, entry: SubagentEntry | null = replay.pinned): void {
    setText(this.state, childStateText(replay, entry));
    this.state.dataset.state = replay.status === 'ok' && replay.running ? 'running' : (entry?.state ?? 'unknown');
    if (replay === this.shown) return;
    this.shown = replay;
    this.older.hidden = replay.status !== 'ok' || replay.olderCursor === null;
    setText(this.older, replay.loadingOlder ? 'Loading older…' : 'Load older');
    const message = noticeText(replay);
    this.notice.hidden = message === null;
    setText(this.notice, message ?? '');
    this.notice.toggleAttribute('data-replay-unavailable', replay.status === 'unavailable' || replay.status === 'error');
    this.reconcile(replay);
  }

  /** Removes the pane and its listeners. */
  dispose(): void {
    this.log.removeEventListener('scroll', this.onScroll);
    this.root.remove();
    this.rows.clear();
  }

  /** Whether the log shows its last line. */
  atBottom(): boolean {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < BOTTOM_SLACK;
  }

  private reconcile(replay: ReplayState): void {
    const wasAtBottom = this.atBottom();
    const anchor = this.firstVisibleRow();
    const anchorTop = anchor ? anchor.offsetTop - this.log.scrollTop : 0;
    const wanted = new Set(replay.lines.map((line) => line.key));
    for (const [key, row] of this.rows) {
      if (wanted.has(key)) continue;
      row.remove();
      this.rows.delete(key);
    }
    const lastBefore = this.lines.lastElementChild;
    let appended = false;
    let cursor: Element | null = this.lines.firstElementChild;
    for (const { key, entry } of replay.lines) {
      let row = this.rows.get(key);
      if (!row) {
        row = replayRow(key, entry);
        this.rows.set(key, row);
        if (cursor === null && lastBefore !== null) appended = true;
      }
      if (row !== cursor) this.lines.insertBefore(row, cursor);
      cursor = row.nextElementSibling;
    }
    if (!this.opened && replay.lines.length > 0) {
      // A replay opens at its newest line.
      this.opened = true;
      this.scrollToBottom();
      return;
    }
    if (wasAtBottom) this.scrollToBottom();
    else if (anchor && anchor.isConnected) this.log.scrollTop = anchor.offsetTop - anchorTop;
    if (appended && !wasAtBottom) this.marker.hidden = false;
  }

  private firstVisibleRow(): HTMLElement | null {
    const top = this.log.scrollTop;
    for (const row of this.lines.children) {
      const element = row as HTMLElement;
      if (element.offsetTop + element.offsetHeight > top) return element;
    }
    return null;
  }

  private scrollToBottom(): void {
    this.log.scrollTop = this.log.scrollHeight;
    this.marker.hidden = true;
  }

  private readonly onScroll = (): void => {
    if (this.atBottom()) this.marker.hidden = true;
    if (this.log.scrollTop < OLDER_THRESHOLD && this.shown?.status === 'ok' && this.shown.olderCursor) this.options.loadOlder();
  };
}

function noticeText(replay: ReplayState): string | null {
  if (replay.status === 'loading') return 'Loading…';
  if (replay.status === 'unavailable' || replay.status === 'error') return `Replay unavailable: ${replay.reason ?? 'no reason given.'}`;
  if (replay.lines.length === 0) return 'Nothing said yet.';
  return null;
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
