/**
 * The work an agent holds, on its card (issue 40): each dispatched item's title and, when it has its own worktree, its
 * branch and how many files it changed (main reads `git status --porcelain` at most every 10 s; "?" until it has).
 */
import type { DispatchView } from '../../shared/dispatch';
import { dispatchesOfAgent } from '../store/dispatchActions';
import type { AppStore } from '../store/createAppStore';
import { element } from './dom';

/** The changed-files phrase: unknown is "?", never 0. */
export function changedFilesText(count: number | null): string {
  if (count === null) return '? files changed';
  return `${count} ${count === 1 ? 'file' : 'files'} changed`;
}

/** The lines for the agent the tray shows; rebuilt only when its dispatches change. */
export class DispatchLine {
  readonly root = element('div', { class: 'agent-dispatch', 'data-agent-dispatches': true });
  private shown: DispatchView[] | null = null;

  constructor(store: AppStore) {
    this.root.hidden = true;
    store.subscribe((state) => this.render(state.ui.tray === null ? [] : dispatchesOfAgent(state.dispatches, state.ui.tray)));
  }

  private render(dispatches: DispatchView[]): void {
    if (this.shown && this.shown.length === dispatches.length && this.shown.every((entry, index) => sameView(entry, dispatches[index]))) return;
    this.shown = dispatches;
    this.root.hidden = dispatches.length === 0;
    this.root.replaceChildren(
      ...dispatches.map((entry) =>
        element(
          'p',
          { class: 'agent-dispatch-item', 'data-agent-dispatch': entry.itemId },
          element('span', { class: 'agent-dispatch-title', 'data-agent-dispatch-title': true }, entry.title),
          entry.branch ? element('span', { class: 'muted', 'data-agent-dispatch-branch': true, title: entry.worktree ?? undefined }, ` · ${entry.branch}`) : null,
          entry.branch ? element('span', { class: 'muted', 'data-agent-dispatch-changes': entry.changedFiles === null ? '' : String(entry.changedFiles) }, ` · ${changedFilesText(entry.changedFiles)}`) : null,
        ),
      ),
    );
  }
}

function sameView(first: DispatchView, second: DispatchView | undefined): boolean {
  return second !== undefined && first.itemId === second.itemId && first.title === second.title && first.branch === second.branch && first.changedFiles === second.changedFiles && first.persona === second.persona;
}
