/**
 * The lobby door's panel: the sessions found on this machine, one line each (harness, real folder, last activity
 * with its date, size, and who holds it), filtered as the owner types and sorted by last activity. The filter field
 * stays while rows change, so typing is never interrupted; opening a session brings a new agent into the lobby.
 */
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { element } from './dom';
import { harnessLabel } from './harnessMark';
import { lobbyGroups, lobbyRows, type LobbyRow } from './lobbyRows';
import { closeOnEscape, keepTabInside } from './panelKeys';
import { pixelTitle } from './pixelTitle';

/** The lobby panel. */
/** What the lobby says when discovery found nothing: where it looked, and where to see the exact folders. */
const NO_SESSIONS =
  'No sessions found in the harness homes this app reads: Claude Code in $CLAUDE_CONFIG_DIR (else ~/.claude), Codex in $CODEX_HOME (else ~/.codex), OpenCode in its database ($OPENCODE_DB, else under $XDG_DATA_HOME or ~/.local/share/opencode). `pixelfleet doctor` names the exact folders.';

export class LobbyPanel {
  readonly root = element('aside', { 'data-panel': 'lobby', class: 'panel lobby', role: 'dialog', 'aria-label': 'Lobby door' });
  private readonly filter = element('input', {
    type: 'search',
    class: 'lobby-filter',
    'data-lobby-filter': true,
    'aria-label': 'Filter sessions',
    placeholder: 'Type to filter: folder, harness, agent',
    autocomplete: 'off',
  });
  private readonly status = element('p', { class: 'muted lobby-status', role: 'status' });
  private readonly list = element('ul', { class: 'lobby-rows', 'data-lobby-rows': true });
  private shown: { open: boolean; candidates: AppState['candidates']; unreachable: AppState['lobbyUnreachable'] | null; home: string | undefined; filter: string } = { open: false, candidates: null, unreachable: null, home: undefined, filter: '' };

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
    const close = element('button', { type: 'button', class: 'close', onclick: () => this.close() }, 'Close');
    this.root.append(element('header', {}, pixelTitle('Lobby door: sessions'), close), this.filter, this.status, this.list);
    this.filter.addEventListener('input', () => this.render(store.getState(), true));
    closeOnEscape(this.root, () => this.close());
    keepTabInside(this.root);
    store.subscribe((state) => this.render(state));
    this.render(store.getState());
  }

  private close(): void {
    this.store.getState().actions.closeLobby();
    document.querySelector<HTMLElement>('[data-lobby-door]')?.focus();
  }

  private render(state: AppState, force = false): void {
    const open = state.ui.lobbyOpen;
    const home = state.fleet?.ownerHome;
    const { shown } = this;
    if (!force && open === shown.open && state.candidates === shown.candidates && state.lobbyUnreachable === shown.unreachable && home === shown.home) return;
    const opening = open && !shown.open;
    this.shown = { open, candidates: state.candidates, unreachable: state.lobbyUnreachable, home, filter: this.filter.value };
    this.root.hidden = !open;
    if (!open) {
      this.filter.value = '';
      this.list.replaceChildren();
      return;
    }
    const candidates = state.candidates;
    const rows = candidates ? lobbyRows(candidates, this.filter.value, home, new Date()) : [];
    this.status.textContent =
      (candidates === null ? 'Looking for sessions…' : candidates.length === 0 ? NO_SESSIONS : rows.length === 0 ? 'No session matches the filter.' : `${rows.length} of ${candidates.length} sessions`) + unreachableNote(state.lobbyUnreachable.length);
    const groups = candidates ? lobbyGroups(rows, state.lobbyUnreachable) : [];
    this.list.replaceChildren(...groups.flatMap((group) => [...(group.host === null ? [] : [hostHeading(group.host, group.unreachable)]), ...group.rows.map((row) => this.row(row))]));
    if (opening) this.filter.focus();
  }

  private row(row: LobbyRow): HTMLElement {
    const { actions } = this.store.getState();
    const folder = row.folder ?? 'folder unknown';
    return element(
      'li',
      { 'data-candidate': row.id, 'data-opened': row.opened ? 'true' : 'false', 'data-host': row.host ?? '', class: 'lobby-row' },
      element('span', { class: 'lobby-harness' }, harnessLabel(row.harness)),
      element('span', { class: `lobby-folder${row.folder ? '' : ' muted'}`, title: folder, 'data-lobby-folder': true }, folder),
      element('span', { class: 'lobby-when', 'data-lobby-when': true }, row.when),
      element('span', { class: 'lobby-size muted' }, row.size),
      row.opened
        ? element('span', { class: 'lobby-holder', 'data-lobby-holder': true, title: row.openedBy ? `Opened by ${row.openedBy}` : 'Opened' }, row.openedBy ? `● ${row.openedBy}` : 'opened')
        : element('button', { type: 'button', onclick: () => void actions.openCandidate(row.id) }, 'Open'),
    );
  }
}

/** The status line's note of hosts that could not list their sessions ("" when every host answered). */
function unreachableNote(count: number): string {
  return count === 0 ? '' : ` (${count} ${count === 1 ? 'host' : 'hosts'} could not be reached: see below)`;
}

/** The heading a remote host's sessions are listed under; for a host that could not list them, that it is unreachable and why. */
function hostHeading(host: string, unreachable: string | null): HTMLElement {
  if (unreachable === null) return element('li', { class: 'lobby-host muted', 'data-lobby-host': host, role: 'presentation' }, `on ${host}`);
  return element('li', { class: 'lobby-host lobby-unreachable', 'data-lobby-host': host, 'data-lobby-unreachable': host }, `on ${host}: ${unreachable}; its sessions cannot be listed now`);
}
