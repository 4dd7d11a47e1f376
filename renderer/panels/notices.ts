/** Notices from main that the owner must see (a damaged persona store moved aside, a setting that was not used). */
import type { Notice } from '../../shared/schemas';
import type { AppStore } from '../store/createAppStore';
import type { Bridge } from '../bridge';
import { element } from './dom';

/** A banner listing the fleet's notices until the owner dismisses each one (for this page). */
export function createNotices(store: AppStore): HTMLElement {
  const root = element('div', { 'data-panel': 'notices', class: 'notices', role: 'alert' });
  const dismissed = new Set<string>();
  let shown: readonly Notice[] | undefined;
  const render = () => {
    const notices = (shown ?? []).filter((notice) => !dismissed.has(notice.id));
    root.hidden = notices.length === 0;
    root.replaceChildren(
      ...notices.map((notice) =>
        element(
          'p',
          { class: `notice notice-${notice.level}`, 'data-notice': notice.id },
          notice.message,
          element('button', { type: 'button', 'aria-label': 'Dismiss', onclick: () => (dismissed.add(notice.id), render()) }, '×'),
        ),
      ),
    );
  };
  const follow = () => {
    const next = store.getState().fleet?.notices;
    if (next === shown) return;
    shown = next;
    render();
  };
  store.subscribe(follow);
  follow();
  return root;
}

/** A first-run hint while the fleet has no agents: where they come from, naming the command this app was started with. */
export function createEmptyHint(store: AppStore, bridge: Bridge): HTMLElement {
  const command = element('code', { 'data-demo-command': true }, 'pixelfleet web --demo');
  const root = element(
    'p',
    { 'data-panel': 'empty-hint', class: 'empty-hint pixel-panel', role: 'note' },
    'No agents yet. Open the Lobby door to bring in a Claude Code, Codex or OpenCode session from this machine, or start again with ',
    command,
    ' to watch a simulated fleet.',
  );
  bridge.invoke('app.info', {}).then(
    (info) => {
      if (info.start) command.textContent = info.start.demo;
    },
    () => {},
  );
  const follow = () => {
    const fleet = store.getState().fleet;
    const hidden = !fleet || fleet.personas.length > 0;
    if (root.hidden !== hidden) root.hidden = hidden;
  };
  store.subscribe(follow);
  follow();
  return root;
}
