/** The smaller DOM panels: a station's backlog, the lobby door's session list, messages, and the toolbar. */
import { runningCounts } from '../../shared/jobs';
import { roleKey } from '../../shared/roles';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { clockTime, element, present } from './dom';

/** Re-renders `render` into `root` whenever `pick` of the state changes. */
function follow<T extends readonly unknown[]>(store: AppStore, pick: (state: AppState) => T, render: (value: T, state: AppState) => void): void {
  let previous: T | undefined;
  let first = true;
  const run = (state: AppState) => {
    const value = pick(state);
    if (!first && previous && value.every((part, index) => Object.is(part, previous![index]))) return;
    first = false;
    previous = value;
    render(value, state);
  };
  store.subscribe(run);
  run(store.getState());
}

/** The backlog board's panel: titles, status and links (opened in the system browser), or the source's error. */
export function createBacklogPanel(store: AppStore): HTMLElement {
  const root = element('aside', { 'data-panel': 'backlog', class: 'panel backlog', role: 'dialog', 'aria-label': 'Backlog' });
  root.addEventListener('keydown', (event) => event.key === 'Escape' && store.getState().actions.openBacklog(null));
  follow(store, (state) => [state.ui.backlog, state.fleet] as const, ([key, fleet]) => {
    root.hidden = key === null;
    if (key === null) return root.replaceChildren();
    const station = fleet?.stations.find((entry) => roleKey(entry.role) === key);
    const items = station?.backlog.items ?? [];
    const { actions } = store.getState();
    root.replaceChildren(
      ...present(
      element('header', {}, element('h2', {}, `Backlog: ${station?.role ?? key}`), element('button', { type: 'button', class: 'close', onclick: () => actions.openBacklog(null) }, 'Close')),
      station?.backlog.error ? element('p', { class: 'error', 'data-backlog-error': true }, station.backlog.error) : null,
      items.length === 0 ? element('p', { class: 'muted' }, `No work items labelled ${station?.role ?? key}.`) : null,
      element(
        'ul',
        { class: 'items' },
        ...items.map((item) =>
          element(
            'li',
            { 'data-work-item': item.id },
            element('button', { type: 'button', class: 'link', onclick: () => void actions.openExternal(item.url) }, item.title),
            element('span', { class: 'muted' }, ` ${item.status ?? 'no status'} · ${item.source}`),
          ),
        ),
      ),
    ));
  });
  return root;
}

/** The lobby door: sessions found on this machine; opening one brings a new agent into the lobby. */
export function createLobbyPanel(store: AppStore): HTMLElement {
  const root = element('aside', { 'data-panel': 'lobby', class: 'panel lobby', role: 'dialog', 'aria-label': 'Lobby door' });
  root.addEventListener('keydown', (event) => event.key === 'Escape' && store.getState().actions.closeLobby());
  follow(store, (state) => [state.ui.lobbyOpen, state.candidates] as const, ([open, candidates]) => {
    root.hidden = !open;
    if (!open) return root.replaceChildren();
    const { actions } = store.getState();
    root.replaceChildren(
      ...present(
      element('header', {}, element('h2', {}, 'Lobby door: sessions'), element('button', { type: 'button', class: 'close', onclick: () => actions.closeLobby() }, 'Close')),
      candidates === null ? element('p', { class: 'muted' }, 'Looking for sessions…') : null,
      candidates?.length === 0 ? element('p', { class: 'muted' }, 'No sessions found.') : null,
      element(
        'ul',
        { class: 'items' },
        ...(candidates ?? []).map((candidate) =>
          element(
            'li',
            { 'data-candidate': candidate.id },
            element('span', {}, `${candidate.harness} · ${candidate.cwdHint ?? candidate.seat.sessionId} · ${clockTime(candidate.lastActivity)} `),
            candidate.opened
              ? element('span', { class: 'muted' }, 'opened')
              : element('button', { type: 'button', onclick: () => void actions.openCandidate(candidate.id) }, 'Open'),
          ),
        ),
      ),
    ));
  });
  return root;
}

/** Messages for the owner (refused roles, failed reads), announced politely. */
export function createMessages(store: AppStore): HTMLElement {
  const root = element('div', { 'data-panel': 'messages', class: 'messages', role: 'status', 'aria-live': 'polite' });
  follow(store, (state) => [state.ui.messages, state.ui.error] as const, ([messages, error]) => {
    root.replaceChildren(
      ...present(
      error ? element('p', { class: 'message message-error', 'data-message': 'error' }, error) : null,
      ...messages.map((message) =>
        element(
          'p',
          { class: `message message-${message.level}`, 'data-message': message.level },
          message.text,
          element('button', { type: 'button', 'aria-label': 'Dismiss', onclick: () => store.getState().actions.dismissMessage(message.id) }, '×'),
        ),
      ),
    ));
  });
  return root;
}

/** The toolbar: fit all, the lobby door, the jobs board, and a hint of the keys. */
export function createToolbar(store: AppStore, fit: () => void): HTMLElement {
  return element(
    'div',
    { class: 'toolbar', 'data-panel': 'toolbar' },
    element('button', { type: 'button', onclick: fit, title: 'Fit all (F)' }, 'Fit all'),
    element('button', { type: 'button', onclick: () => void store.getState().actions.openLobby(), 'data-lobby-door': true }, 'Lobby door'),
    jobsButton(store),
    element('span', { class: 'hint' }, 'Drag agents to stations · Tab to an agent, R for roles, Enter for its tray · J for jobs'),
  );
}

/** The toolbar's jobs button: opens and closes the board (as `J` does) and shows how many jobs run. */
function jobsButton(store: AppStore): HTMLElement {
  const button = element('button', { type: 'button', title: 'Jobs board (J)', 'data-jobs-button': true, 'aria-pressed': 'false', onclick: () => store.getState().actions.toggleJobs() }, 'Jobs');
  follow(store, (state) => [state.ui.jobsOpen, state.jobs] as const, ([open, board]) => {
    button.setAttribute('aria-pressed', String(open));
    const running = board ? Object.values(runningCounts(board)).reduce((sum, count) => sum + count, 0) : null;
    button.textContent = running === null ? 'Jobs' : `Jobs (${running})`;
  });
  return button;
}
