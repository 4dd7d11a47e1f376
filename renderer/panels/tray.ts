/**
 * The tray of one agent: its eight most recent subagents with label, kind, state, start time and duration; a
 * replayable entry expands into the replay (newest page, older pages on scroll, refreshed while running).
 */
import type { SubagentEntry } from '../../shared/schemas';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { clockTime, duration, element } from './dom';

/** Pixels from the top of the replay log at which older pages load. */
const OLDER_THRESHOLD = 24;

/** The tray panel. */
export class TrayPanel {
  readonly root = element('aside', { 'data-panel': 'tray', class: 'panel tray', role: 'dialog', 'aria-label': 'Subagents' });
  private shown: { tray: string | null; fleet: AppState['fleet']; replay: AppState['replay'] } = { tray: null, fleet: null, replay: null };

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') store.getState().actions.closeTray();
    });
    store.subscribe((state) => this.render(state));
  }

  private render(state: AppState): void {
    const { tray } = state.ui;
    if (tray === this.shown.tray && state.fleet === this.shown.fleet && state.replay === this.shown.replay) return;
    const replayOnly = tray === this.shown.tray && state.fleet === this.shown.fleet;
    this.shown = { tray, fleet: state.fleet, replay: state.replay };
    this.root.hidden = tray === null;
    if (tray === null) {
      this.root.replaceChildren();
      return;
    }
    const existingLog = this.root.querySelector('[data-replay-log]');
    if (replayOnly && existingLog && state.replay) {
      this.renderLog(existingLog as HTMLElement, state);
      return;
    }
    const persona = state.fleet?.personas.find((entry) => entry.id === tray);
    const seat = state.fleet?.seats.find((entry) => entry.personaId === tray);
    const { actions } = this.store.getState();
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => actions.closeTray() }, 'Close');
    const heading = element('h2', {}, `${persona?.name ?? 'Agent'}: subagents`);
    this.root.setAttribute('aria-label', `Subagents of ${persona?.name ?? 'agent'}`);
    const body: Node[] = [];
    if (!seat) body.push(element('p', { class: 'muted' }, 'This agent has no seat, so its subagents are unknown.'));
    else if (!seat.subagents) body.push(element('p', { class: 'muted', 'data-unknown': true }, `Subagents unknown: ${seat.unknownReason ?? 'this seat cannot be read.'}`));
    else if (seat.subagents.recent.length === 0) body.push(element('p', { class: 'muted' }, 'No subagents yet.'));
    else {
      body.push(element('p', { class: 'muted' }, `${seat.subagents.running} running`));
      const list = element('ol', { class: 'entries' });
      for (const entry of seat.subagents.recent) list.append(this.entry(entry, state));
      body.push(list);
    }
    this.root.replaceChildren(element('header', {}, heading, close), ...body);
  }

  private entry(entry: SubagentEntry, state: AppState): HTMLElement {
    const { actions } = this.store.getState();
    const when = `${clockTime(entry.startedAt)} · ${duration(entry.startedAt, entry.endedAt)}${entry.endedAtEstimated ? ' (estimated)' : ''}`;
    const facts = element(
      'span',
      { class: 'facts' },
      element('span', { class: `state state-${entry.state}` }, entry.state === 'running' ? 'running' : `ended${entry.outcome ? ` (${entry.outcome})` : ''}`),
      entry.kind ? element('span', { class: 'kind' }, entry.kind) : null,
      element('span', { class: 'time' }, when),
    );
    const replayable = entry.replayable && entry.nativeId !== null;
    const expanded = replayable && state.replay?.nativeId === entry.nativeId;
    const title = replayable
      ? element(
          'button',
          {
            type: 'button',
            class: 'label',
            'data-replay': entry.nativeId!,
            'aria-expanded': expanded ? 'true' : 'false',
            onclick: () => (expanded ? actions.collapseReplay() : void actions.openReplay(entry.nativeId!)),
          },
          entry.label,
        )
      : element('span', { class: 'label', 'data-count-only': true }, entry.label);
    const item = element('li', { 'data-subagent': entry.nativeId ?? entry.label, 'data-state': entry.state }, title, facts);
    if (expanded) {
      const log = element('div', { class: 'replay', 'data-replay-log': true, role: 'log', tabindex: 0, 'aria-label': `Replay of ${entry.label}` });
      log.addEventListener('scroll', () => {
        if (log.scrollTop < OLDER_THRESHOLD) void this.store.getState().actions.loadOlderReplay();
      });
      const collapse = element('button', { type: 'button', 'data-collapse': true, onclick: () => actions.collapseReplay() }, 'Collapse');
      item.append(log, collapse);
      this.renderLog(log, state);
    }
    return item;
  }

  private renderLog(log: HTMLElement, state: AppState): void {
    const replay = state.replay;
    if (!replay) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    const previousHeight = log.scrollHeight;
    const nodes: Node[] = [];
    if (replay.status === 'loading') nodes.push(element('p', { class: 'muted' }, 'Loading…'));
    else if (replay.status === 'unavailable' || replay.status === 'error') {
      nodes.push(element('p', { class: 'muted', 'data-replay-unavailable': true }, `Replay unavailable: ${replay.reason ?? 'no reason given.'}`));
    } else {
      if (replay.olderCursor) {
        const older = element('button', { type: 'button', 'data-older': true, onclick: () => void this.store.getState().actions.loadOlderReplay() }, replay.loadingOlder ? 'Loading older…' : 'Load older');
        nodes.push(older);
      }
      const entries = [...replay.older, ...replay.latest];
      if (entries.length === 0) nodes.push(element('p', { class: 'muted' }, 'Nothing said yet.'));
      for (const line of entries) {
        const who = line.role === 'tool' && line.tool ? `tool ${line.tool}` : line.role;
        nodes.push(element('div', { class: `line line-${line.role}`, 'data-line-role': line.role }, element('b', {}, who), element('span', {}, line.text)));
      }
      if (replay.running) nodes.push(element('p', { class: 'muted' }, 'Running — refreshing every 2 s.'));
    }
    log.replaceChildren(...nodes);
    // Stay at the bottom while following a running child; keep the reading place when older pages arrive on top.
    if (atBottom || previousHeight === 0) log.scrollTop = log.scrollHeight;
    else log.scrollTop += log.scrollHeight - previousHeight;
  }
}
