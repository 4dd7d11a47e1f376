/**
 * An agent's card with its tray: the header (name, role, harness, folder), its most recent subagents and the
 * earlier ones found on disk, each with label, kind, state, start time and duration. A replayable entry expands
 * into the replay pane in place. Rows are reconciled by id, so snapshots never disturb what the owner is reading,
 * scrolling or focusing; an open replay stays (pinned) when its entry leaves the lists.
 */
import { placeAt } from './uiScale';
import { jobKey } from '../../shared/jobs';
import type { SubagentEntry } from '../../shared/schemas';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { AgentCardHeader, agentCardFacts } from './agentCard';
import { DispatchLine } from './dispatchLine';
import { AttachRow } from './attachRow';
import type { ActRow } from './actRow';
import { element } from './dom';
import { keepTabInside } from './panelKeys';
import { PAGE_BOUNDS, placeBeside, type Rect } from './placement';
import { topBandNow } from './topBand';
import { ReplayPane } from './replayPane';
import { TrayRow, rowKey } from './trayRow';
import { TeamList, teamCards } from './teamList';

/** What the tray asks of the world to sit beside an agent. */
export interface TrayWorld {
  /** The agent's box on screen (CSS pixels), or null when it is not drawn. */
  agentBox(personaId: string): Rect | null;
  /** Pans the world by a screen distance. */
  pan(deltaX: number, deltaY: number): void;
}

/** The sentence for a running entry that cannot be replayed and carries no reason of its own. */
export const NOT_LOCATED = 'live transcript not located yet; replay opens when the call records its agent id';

/** The tray panel. */
export class TrayPanel {
  readonly root = element('aside', { 'data-panel': 'tray', class: 'panel tray', role: 'dialog', 'aria-label': 'Subagents' });
  private readonly header = new AgentCardHeader();
  private readonly attach: AttachRow;
  private readonly teams = new TeamList();
  private readonly status = element('p', { class: 'muted tray-status', 'data-tray-status': true });
  private readonly recent = element('ol', { class: 'entries', 'data-tray-recent': true });
  private readonly earlierHeading = element('h3', { class: 'tray-earlier-heading' }, 'Earlier');
  private readonly earlier = element('ol', { class: 'entries entries-earlier', 'data-tray-earlier': true });
  private readonly rows = new Map<string, TrayRow>();
  private pane: { nativeId: string; view: ReplayPane; row: TrayRow } | null = null;
  private shown: { tray: string | null; fleet: AppState['fleet']; replay: AppState['replay']; jobs: AppState['jobs'] } = { tray: null, fleet: null, replay: null, jobs: null };
  private world: TrayWorld | null = null;
  private placed = '';

  constructor(
    private readonly store: AppStore,
    /** The card's acting row (issue 39), when the page offers acting. */
    private readonly act: ActRow | null = null,
  ) {
    this.root.hidden = true;
    this.attach = new AttachRow(store);
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => this.close() }, 'Close');
    this.earlierHeading.hidden = true;
    this.root.append(element('header', { class: 'tray-header' }, this.header.root, close), new DispatchLine(store).root, this.attach.root, ...(act ? [act.root] : []), this.teams.root, this.status, this.recent, this.earlierHeading, this.earlier);
    // Escape closes the tray from anywhere, unless another panel (the role picker) has the keyboard.
    window.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || this.root.hidden) return;
      const target = event.target as HTMLElement | null;
      const panel = target?.closest?.('[data-panel]');
      if (panel && panel !== this.root) return;
      if (store.getState().ui.picker !== null) return;
      this.close();
    });
    keepTabInside(this.root);
    store.subscribe((state) => this.render(state));
  }

  /** Lets the tray place itself beside its agent and pan the world when there is no room. */
  attachWorld(world: TrayWorld): void {
    this.world = world;
  }

  /** Moves the panel beside its agent (call when the camera or the agent moved); only on open may the world pan. */
  place(allowPan = false): void {
    const personaId = this.shown.tray;
    if (!this.world || personaId === null || this.root.hidden) return;
    const box = this.world.agentBox(personaId);
    if (!box) return;
    const measured = this.root.getBoundingClientRect();
    const size = { width: measured.width, height: measured.height };
    const focused = document.querySelector<HTMLElement>('[data-mirror] [data-agent]:focus');
    const avoid = focused ? [focused.getBoundingClientRect()] : [];
    // Below the top band (the strip's reply row, any notice), not only the toolbar.
    const spot = placeBeside(box, size, { width: innerWidth, height: innerHeight }, avoid, { ...PAGE_BOUNDS, insetTop: Math.max(PAGE_BOUNDS.insetTop, topBandNow()) });
    if (spot.panX !== 0 || spot.panY !== 0) {
      if (!allowPan) return;
      this.world.pan(spot.panX, spot.panY);
    }
    const key = `${spot.left},${spot.top}`;
    if (key === this.placed) return;
    this.placed = key;
    placeAt(this.root, spot.left, spot.top);
    this.root.style.right = 'auto';
  }

  private close(): void {
    const personaId = this.store.getState().ui.tray;
    const hadFocus = this.root.contains(document.activeElement);
    this.store.getState().actions.closeTray();
    if (hadFocus && personaId) document.querySelector<HTMLElement>(`[data-agent="${CSS.escape(personaId)}"]`)?.focus();
  }

  private render(state: AppState): void {
    const { tray } = state.ui;
    // A replay the jobs board opened is the board's, even for this agent's subagent.
    const replay = state.replay && state.replay.owner === 'tray' && state.replay.personaId === tray ? state.replay : null;
    if (tray === this.shown.tray && state.fleet === this.shown.fleet && replay === this.shown.replay && state.jobs === this.shown.jobs) return;
    const opening = tray !== this.shown.tray;
    const closed = tray === null && this.shown.tray === null && this.root.hidden;
    this.shown = { tray, fleet: state.fleet, replay, jobs: state.jobs };
    // A closed tray stays as it was closed: a fleet change touches none of its elements.
    if (closed) return;
    this.root.hidden = tray === null;
    if (tray === null || opening) this.clear();
    if (tray === null) {
      this.act?.hide();
      return this.attach.hide();
    }
    this.attach.show(tray);
    const activity = state.fleet?.seats.find((entry) => entry.personaId === tray)?.activity;
    this.act?.show(tray, activity?.state === 'needs-you' ? (activity.why ?? null) : null);
    this.root.dataset.trayFor = tray;
    const facts = agentCardFacts(state.fleet, tray);
    if (facts) this.header.update(facts);
    this.teams.update(teamCards(state.fleet, tray));
    this.root.setAttribute('aria-label', `${facts?.name ?? 'Agent'}: card and subagents`);
    this.renderLists(state, tray, replay);
    if (replay && this.pane?.nativeId === replay.nativeId) {
      this.pane.view.setAlias(this.pane.row.alias);
      this.pane.view.update(replay, this.pane.row.entry);
    }
    if (opening) this.placed = '';
    this.place(opening);
  }

  private renderLists(state: AppState, tray: string, replay: AppState['replay']): void {
    const seat = state.fleet?.seats.find((entry) => entry.personaId === tray);
    const summary = seat?.subagents;
    let status: string;
    if (!seat) status = 'This agent has no seat, so its subagents are unknown.';
    else if (!summary) status = `Subagents unknown: ${seat.unknownReason ?? 'this seat cannot be read.'}`;
    else if (summary.recent.length === 0 && (summary.earlier?.length ?? 0) === 0) status = 'No subagents yet.';
    else status = `${summary.running} running`;
    if (this.status.textContent !== status) this.status.textContent = status;
    this.status.toggleAttribute('data-unknown', Boolean(seat && !summary));

    const recent = summary?.recent ?? [];
    const recentIds = new Set(recent.map((entry) => entry.nativeId));
    const earlier = (summary?.earlier ?? []).filter((entry) => !recentIds.has(entry.nativeId));
    const listed = new Set([...recentIds, ...earlier.map((entry) => entry.nativeId)]);
    const expanded = replay?.nativeId ?? null;
    // An open replay whose entry left both lists stays, pinned at the end of the recent ones, until closed.
    const pinned: SubagentEntry[] = replay && !listed.has(replay.nativeId) ? [replay.pinned ?? placeholder(replay.nativeId)] : [];
    const seen = new Set<string>();
    const aliasOf = (entry: SubagentEntry) => (seat && entry.nativeId !== null ? (state.jobs?.aliases[jobKey(seat.id, entry.nativeId)] ?? null) : null);
    this.reconcile(this.recent, [...recent.map((entry, index) => ({ entry, index, kind: 'recent' as const })), ...pinned.map((entry) => ({ entry, index: 0, kind: 'pinned' as const }))], expanded, seen, aliasOf);
    this.reconcile(this.earlier, earlier.map((entry, index) => ({ entry, index, kind: 'earlier' as const })), expanded, seen, aliasOf);
    this.earlierHeading.hidden = earlier.length === 0;
    for (const [key, row] of this.rows) {
      if (seen.has(key)) continue;
      if (this.pane?.row === row) this.disposePane();
      row.root.remove();
      this.rows.delete(key);
    }
    this.syncPane(replay);
  }

  private reconcile(
    list: HTMLElement,
    wanted: { entry: SubagentEntry; index: number; kind: 'recent' | 'earlier' | 'pinned' }[],
    expanded: string | null,
    seen: Set<string>,
    aliasOf: (entry: SubagentEntry) => string | null,
  ): void {
    let cursor: Element | null = list.firstElementChild;
    for (const { entry, index, kind } of wanted) {
      const key = rowKey(entry, index);
      seen.add(key);
      let row = this.rows.get(key);
      if (!row) {
        row = new TrayRow(key, {
          toggle: (nativeId) => {
            const { actions, replay } = this.store.getState();
            if (replay?.owner === 'tray' && replay.nativeId === nativeId) actions.collapseReplay();
            else void actions.openReplay(nativeId);
          },
        });
        this.rows.set(key, row);
      }
      const note = entry.state === 'running' && !entry.replayable ? (entry.replayNote ?? NOT_LOCATED) : (entry.replayNote ?? null);
      row.update(entry, kind, expanded !== null && entry.nativeId === expanded, note, aliasOf(entry));
      // Rows move by inserting the others around them, so the expanded row (and its scroll) stays put.
      if (row.root !== cursor) list.insertBefore(row.root, cursor);
      cursor = row.root.nextElementSibling;
    }
  }

  private syncPane(replay: AppState['replay']): void {
    if (!replay) return this.disposePane();
    if (this.pane?.nativeId === replay.nativeId) return;
    this.disposePane();
    const row = [...this.rows.values()].find((candidate) => candidate.entry?.nativeId === replay.nativeId);
    if (!row) return;
    const view = new ReplayPane({ label: `Replay of ${row.entry?.label ?? 'subagent'}`, loadOlder: () => void this.store.getState().actions.loadOlderReplay() });
    view.setAlias(row.alias);
    row.mountPane(view, () => this.store.getState().actions.collapseReplay());
    this.pane = { nativeId: replay.nativeId, view, row };
  }

  private disposePane(): void {
    if (!this.pane) return;
    this.pane.row.unmountPane();
    this.pane.view.dispose();
    this.pane = null;
  }

  private clear(): void {
    this.disposePane();
    for (const row of this.rows.values()) row.root.remove();
    this.rows.clear();
    this.placed = '';
  }
}

function placeholder(nativeId: string): SubagentEntry {
  return { nativeId, label: 'subagent', kind: null, background: false, state: 'ended', startedAt: '', replayable: true };
}
