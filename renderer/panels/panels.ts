/** The smaller DOM panels: a station's backlog, messages, and the toolbar with the jobs button and the harness legend. */
import { signsList } from './signsLegend';
import { runningCounts } from '../../shared/jobs';
import { roleKey } from '../../shared/roles';
import type { AppState } from '../store/appState';
import { dispatchOfItem } from '../store/dispatchActions';
import type { DispatchView } from '../../shared/dispatch';
import type { WorkItem } from '../../shared/schemas';
import type { AppStore } from '../store/createAppStore';
import { element, present, setAttribute, setText } from './dom';
import { createLegend } from './harnessMark';
import { closeOnEscape, keepTabInside } from './panelKeys';
import { pixelTitle } from './pixelTitle';
import { roleText } from '../../shared/usagePhrases';

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

/** The backlog board's panel: its items as cards (title, status, link, "→ Ada" once dispatched), or the source's error. */
export function createBacklogPanel(store: AppStore): HTMLElement {
  const root = element('aside', { 'data-panel': 'backlog', class: 'panel backlog', role: 'dialog', 'aria-label': 'Backlog' });
  closeOnEscape(root, () => store.getState().actions.openBacklog(null));
  keepTabInside(root);
  follow(store, (state) => [state.ui.backlog, state.fleet, state.dispatches] as const, ([key, fleet, dispatches]) => {
    // A closed board stays as it was closed: a fleet change touches none of its elements.
    if (key === null) {
      if (!root.hidden) root.hidden = true;
      if (root.firstChild) root.replaceChildren();
      return;
    }
    root.hidden = false;
    const station = fleet?.stations.find((entry) => roleKey(entry.role) === key);
    const items = station?.backlog.items ?? [];
    const { actions } = store.getState();
    root.replaceChildren(
      ...present(
      element('header', {}, pixelTitle(`Backlog: ${roleText(station?.role ?? key)}`), element('button', { type: 'button', class: 'close', onclick: () => actions.openBacklog(null) }, 'Close')),
      station?.backlog.error ? element('p', { class: 'error', 'data-backlog-error': true }, station.backlog.error) : null,
      items.length === 0 ? element('p', { class: 'muted' }, `No work items labelled ${roleText(station?.role ?? key)}.`) : null,
      items.length > 0 ? element('p', { class: 'muted backlog-hint' }, 'Drag a card onto a station to launch an agent with it, or onto an agent to give it the item.') : null,
      element('ul', { class: 'items' }, ...items.map((item) => backlogCard(store, key, item, dispatchOfItem(dispatches, item)))),
    ));
  });
  return root;
}

/** One backlog card; a press on it starts a card drag (world/cardDrop.ts takes it from there). */
function backlogCard(store: AppStore, stationKey: string, item: WorkItem, dispatch: DispatchView | null): HTMLElement {
  const { actions } = store.getState();
  return element(
    'li',
    {
      class: 'work-card',
      'data-work-item': item.id,
      'data-work-card': item.id,
      'data-dispatched-to': dispatch ? dispatch.personaId : undefined,
      onpointerdown: (event: Event) => {
        if ((event as PointerEvent).button === 0) actions.startCardDrag({ item, stationKey });
      },
    },
    element('button', { type: 'button', class: 'link', onclick: () => void actions.openExternal(item.url) }, item.title),
    element('span', { class: 'muted' }, ` ${item.status ?? 'no status'} · ${item.source} `),
    dispatch ? element('span', { class: 'work-card-dispatch', 'data-work-card-dispatch': true, title: dispatch.branch ? `on ${dispatch.branch}` : undefined }, ` → ${dispatch.persona}`) : null,
    // The keyboard's way to the same launch as dropping the card on its own station.
    dispatch
      ? null
      : element('button', { type: 'button', class: 'link work-card-launch', 'data-work-card-launch': item.id, onclick: () => void actions.openLaunch(stationKey, store.getState().fleet?.stations.find((entry) => roleKey(entry.role) === stationKey)?.role ?? stationKey, item) }, 'Launch with it…'),
  );
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

/** The keys and the signs of the world, behind a small "Keys and signs" toggle so the toolbar stays short. */
function createKeysHint(): HTMLElement {
  const keys: [string, string][] = [
    ['Drag', 'an agent onto a station to give it that role'],
    ['Tab', 'to an agent; R for its role, Enter for its tray, T for its terminal'],
    ['J', 'the jobs board'],
    ['H', 'the timeline: drag back through the day; Esc for now'],
    ['F', 'fit all'],
    ['+ −', 'zoom; drag the floor to pan'],
    ['Esc', 'close a panel'],
  ];
  return element(
    'details',
    { class: 'keys', 'data-keys': true },
    element('summary', {}, 'Keys and signs'),
    element(
      'div',
      { class: 'pixel-panel keys-list' },
      element('dl', { class: 'keys-keys' }, ...keys.flatMap(([key, what]) => [element('dt', {}, key), element('dd', {}, what)])),
      signsList(),
    ),
  );
}

/** The toolbar on its own backing: fit all, the lobby door, the jobs board, the keys, and the legend of harness marks. */
export function createToolbar(store: AppStore, fit: () => void): HTMLElement {
  return element(
    'div',
    { class: 'toolbar pixel-panel', 'data-panel': 'toolbar' },
    element('button', { type: 'button', onclick: fit, title: 'Fit all (F)' }, 'Fit all'),
    element('button', { type: 'button', onclick: () => void store.getState().actions.openLobby(), 'data-lobby-door': true }, 'Lobby door'),
    jobsButton(store),
    createKeysHint(),
    createLegend(),
  );
}

/** The toolbar's jobs button: opens and closes the board (as `J` does) and shows how many jobs run. */
function jobsButton(store: AppStore): HTMLElement {
  const button = element('button', { type: 'button', title: 'Jobs board (J)', 'data-jobs-button': true, 'aria-pressed': 'false', onclick: () => store.getState().actions.toggleJobs() }, 'Jobs');
  follow(store, (state) => [state.ui.jobsOpen, state.jobs] as const, ([open, board]) => {
    setAttribute(button, 'aria-pressed', String(open));
    const running = board ? Object.values(runningCounts(board)).reduce((sum, count) => sum + count, 0) : null;
    setText(button, running === null ? 'Jobs' : `Jobs (${running})`);
  });
  return button;
}
