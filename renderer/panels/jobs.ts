/**
 * The jobs board: every running subagent of the fleet, then those that ended in the last 30 minutes, longest-running
 * first, with filters (harness, role, state) and the running count per harness in the header. A row expands into its
 * replay (the tray's replay pane, same bounds and refusals) and the files it touched, read only while expanded. Rows
 * are reconciled by key, so a new board never disturbs the row the owner has focused or the replay being read.
 * Elapsed times tick once a second, and only while the board is open. A parent link closes the board (it would
 * cover the agent it centres) and picks the agent as the needs-you queue does; `J` brings the board back as it was.
 */
import { clockMinutesText, HARNESS_NAMES, harnessText, roleText } from '../../shared/usagePhrases';
import { inPast, shownNowMs } from '../store/historyActions';
import { jobsAsOf } from './pastJobs';
import { FILES_TOUCHED_MAX, boardRows, filesTouched, jobRowKey, roleOptions, runningCounts, type Job, type JobFilter, type Unlisted } from '../../shared/jobs';
import { HarnessSchema, type ToolTarget } from '../../shared/schemas';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { keepTabInside } from './panelKeys';
import { pixelTitle } from './pixelTitle';
import { element, setAttribute, setText } from './dom';
import { JOB_COLUMNS, JobRow } from './jobRow';
import { ReplayPane } from './replayPane';

/** Milliseconds between two ticks of the elapsed times (never faster: the board is text, not animation). */
const TICK_MS = 1000;

interface Detail {
  key: string;
  root: HTMLTableRowElement;
  files: HTMLOListElement;
  filesNote: HTMLElement;
  note: HTMLElement;
  noteText: HTMLElement;
  reopen: HTMLButtonElement;
  pane: ReplayPane | null;
  shownFiles: string;
}

/** The board panel; `pickAgent` focuses and centres a parent agent in the world (as the needs-you queue does). */
export class JobsBoard {
  readonly root = element('aside', { 'data-panel': 'jobs', class: 'panel jobs', role: 'dialog', 'aria-label': 'Jobs' });
  private readonly counts = element('span', { class: 'jobs-counts', 'data-jobs-counts': true, 'aria-live': 'polite' });
  private readonly harness = select('harness', [['', 'all harnesses'], ...HarnessSchema.options.map((value) => [value, HARNESS_NAMES[value]] as [string, string])]);
  private readonly role = select('role', [['*', 'all roles']]);
  private readonly state = select('state', [['', 'running and ended'], ['running', 'running'], ['ended', 'ended']]);
  /** Remote hosts (issue 28): `*` all, `''` this machine, else a host's name; shown once a board lists a remote job. */
  private readonly host = select('host', [['*', 'all hosts'], ['', 'this machine']]);
  private hostKeys = '';
  private readonly empty = element('p', { class: 'muted', 'data-jobs-empty': true });
  /** In the past view: what the board shows then (the jobs started by the moment shown), or hidden live. */
  private readonly pastNote = element('p', { class: 'jobs-past', 'data-jobs-past': true, hidden: true });
  /** The moment the board shows (epoch ms), or null live. */
  private pastAt: number | null = null;
  private readonly body = element('tbody', {});
  private readonly rows = new Map<string, JobRow>();
  private readonly unlisted = new Map<string, HTMLTableRowElement>();
  private detail: Detail | null = null;
  private focusKey: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private roleKeys = '';
  private shown: Pick<AppState, 'jobs' | 'replay'> & { open: boolean; filter: JobFilter | null; selected: string | null; pastAt: number | null } = { open: false, jobs: null, replay: null, filter: null, selected: null, pastAt: null };

  constructor(
    private readonly store: AppStore,
    private readonly pickAgent: (personaId: string) => void,
  ) {
    this.root.hidden = true;
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => this.close() }, 'Close');
    const table = element(
      'table',
      { class: 'jobs-table', 'data-jobs-table': true, 'aria-label': 'Jobs, longest-running first' },
      element('thead', {}, element('tr', {}, ...JOB_COLUMNS.map((name) => element('th', { scope: 'col' }, name)))),
      this.body,
    );
    this.root.append(
      element('header', {}, pixelTitle('Jobs'), this.counts, close),
      element('div', { class: 'jobs-filters' }, label('Harness', this.harness), label('Role', this.role), label('State', this.state), label('Host', this.host)),
      this.pastNote,
      this.empty,
      table,
    );
    this.host.parentElement!.hidden = true;
    for (const control of [this.harness, this.role, this.state, this.host]) control.addEventListener('change', () => this.applyFilters());
    this.body.addEventListener('keydown', (event) => this.onKey(event));
    this.root.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      const { ui, actions } = this.store.getState();
      if (ui.jobSelected === null) return this.close();
      const key = ui.jobSelected;
      actions.selectJob(null);
      this.rows.get(key)?.root.focus();
    });
    keepTabInside(this.root);
    store.subscribe((state) => this.render(state));
    this.render(store.getState());
  }

  private close(): void {
    const hadFocus = this.root.contains(document.activeElement);
    this.store.getState().actions.closeJobs();
    if (hadFocus) document.querySelector<HTMLElement>('[data-jobs-button]')?.focus();
  }

  private applyFilters(): void {
    const filter: JobFilter = {};
    if (this.harness.value) filter.harness = HarnessSchema.parse(this.harness.value);
    if (this.role.value !== '*') filter.role = this.role.value;
    if (this.state.value === 'running' || this.state.value === 'ended') filter.state = this.state.value;
    if (this.host.value !== '*') filter.host = this.host.value;
    this.store.getState().actions.setJobsFilter(filter);
  }

  private render(state: AppState): void {
    const { jobsOpen: open, jobsFilter: filter, jobSelected: selected } = state.ui;
    const replay = state.replay?.owner === 'board' ? state.replay : null;
    const shown = this.shown;
    const pastAt = inPast(state) ? shownNowMs(state) : null;
    if (open === shown.open && state.jobs === shown.jobs && filter === shown.filter && selected === shown.selected && replay === shown.replay && pastAt === shown.pastAt) return;
    const closed = !open && !shown.open && this.root.hidden;
    this.shown = { open, jobs: state.jobs, replay, filter, selected, pastAt };
    this.pastAt = pastAt;
    // A closed board stays as it was closed: a change of the jobs touches none of its elements.
    if (closed) return;
    this.root.hidden = !open;
    if (!open) return this.clear();
    if (this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
    const live = state.jobs ?? { jobs: [], unlisted: [], aliases: {}, at: new Date().toISOString() };
    // The past view shows the board as of its moment: only the jobs started by then, as they were then.
    const board = pastAt === null ? live : { ...live, ...jobsAsOf(live, pastAt) };
    this.pastNote.hidden = pastAt === null;
    setText(this.pastNote, pastAt === null ? '' : `As of ${clockMinutesText(pastAt)}: the jobs that had started by then, as they were then. Jobs that ended more than 30 minutes before now are not kept.`);
    this.renderHeader(board);
    const { jobs, unlisted } = boardRows(board, filter, this.now());
    this.reconcile(jobs, unlisted, selected);
    const expanded = jobs.find((job) => jobRowKey(job) === selected) ?? null;
    this.syncDetail(expanded, replay);
    // A job filtered out or gone from the board collapses, so its replay stops reading (after this update settles).
    if (selected !== null && !expanded && state.jobs !== null) queueMicrotask(() => this.store.getState().ui.jobSelected === selected && this.store.getState().actions.selectJob(null));
    let emptyText = '';
    if (state.jobs === null) emptyText = 'Reading the jobs…';
    else if (jobs.length === 0 && unlisted.length === 0) emptyText = board.jobs.length === 0 ? 'No subagent is running, and none ended in the last 30 minutes.' : 'No job matches these filters.';
    this.empty.textContent = emptyText;
    this.empty.hidden = emptyText === '';
    this.tick();
  }

  private renderHeader(board: NonNullable<AppState['jobs']>): void {
    const counts = runningCounts(board);
    const parts = HarnessSchema.options.map((harness) => element('span', { 'data-jobs-running': harness }, `${HARNESS_NAMES[harness]} ${counts[harness]}`));
    const text = parts.map((part) => part.textContent).join(' ');
    if (this.counts.dataset.text !== text) {
      this.counts.dataset.text = text;
      this.counts.replaceChildren('running: ', ...parts);
    }
    const roles = roleOptions(board.jobs);
    // The filter's values are role keys; each reads as the role does everywhere else (the casing a job records).
    const roleLabel = (key: string) => roleText(board.jobs.find((job) => (job.role ?? '').toLowerCase() === key)?.role ?? key);
    const keys = roles.join('\n');
    if (keys !== this.roleKeys) {
      this.roleKeys = keys;
      const value = this.role.value;
      this.role.replaceChildren(option('*', 'all roles'), ...roles.map((role) => option(role, roleLabel(role))));
      this.role.value = roles.includes(value) ? value : '*';
    }
    const hosts = [...new Set([...board.jobs, ...board.unlisted].flatMap((entry) => (entry.host ? [entry.host] : [])))].sort();
    const hostKeys = hosts.join('\n');
    if (hostKeys !== this.hostKeys) {
      this.hostKeys = hostKeys;
      const value = this.host.value;
      this.host.replaceChildren(option('*', 'all hosts'), option('', 'this machine'), ...hosts.map((host) => option(host, host)));
      this.host.value = value === '*' || value === '' || hosts.includes(value) ? value : '*';
      this.host.parentElement!.hidden = hosts.length === 0;
    }
  }

  private reconcile(jobs: Job[], unlisted: Unlisted[], selected: string | null): void {
    // Rows that went are removed before any is placed: the cursor walks the rows that stay, so it can never stand on
    // a removed row (inserting before one threw NotFoundError once boards moved keys instead of resending the order).
    const seen = new Set(jobs.map(jobRowKey));
    for (const [key, row] of this.rows) {
      if (seen.has(key)) continue;
      row.root.remove();
      this.rows.delete(key);
    }
    const seenSeats = new Set(unlisted.map((entry) => entry.seatId));
    for (const [seatId, row] of this.unlisted) {
      if (seenSeats.has(seatId)) continue;
      row.remove();
      this.unlisted.delete(seatId);
    }
    let cursor: Element | null = this.body.firstElementChild;
    const place = (node: HTMLElement) => {
      if (cursor !== null && cursor.parentNode !== this.body) cursor = null;
      if (node !== cursor) this.body.insertBefore(node, cursor);
      cursor = node.nextElementSibling;
    };
    for (const job of jobs) {
      const key = jobRowKey(job);
      let row = this.rows.get(key);
      if (!row) {
        row = new JobRow(key, job, { select: (target) => this.select(target), pickParent: (personaId) => this.pickParent(personaId) });
        this.rows.set(key, row);
      }
      row.update(job, key === selected);
      place(row.root);
      if (key === selected && this.detail?.key === key) place(this.detail.root);
    }
    for (const entry of unlisted) {
      let row = this.unlisted.get(entry.seatId);
      if (!row) {
        row = element('tr', { class: 'jobs-unlisted', 'data-jobs-unlisted': entry.seatId }, element('td', { colspan: JOB_COLUMNS.length }));
        this.unlisted.set(entry.seatId, row);
      }
      const text = `${entry.running} more running subagent${entry.running === 1 ? '' : 's'} of ${entry.persona ?? entry.seatId}${entry.harness ? ` (${harnessText(entry.harness)})` : ''}, counted but not listed`;
      if (row.textContent !== text) row.firstElementChild!.textContent = text;
      setAttribute(row, 'data-running', String(entry.running));
      place(row);
    }
    // Roving focus: one row is the tab stop; it stays on the focused row while rows move around it.
    if (this.focusKey === null || !this.rows.has(this.focusKey)) this.focusKey = jobs.length > 0 ? jobRowKey(jobs[0]) : null;
    for (const [key, row] of this.rows) setAttribute(row.root, 'tabindex', key === this.focusKey ? '0' : '-1');
  }

  private syncDetail(job: Job | null, replay: AppState['replay']): void {
    if (!job) return this.disposeDetail();
    const key = jobRowKey(job);
    if (this.detail?.key !== key) {
      this.disposeDetail();
      const files = element('ol', { class: 'jobs-files', 'data-files-touched': true });
      const filesNote = element('p', { class: 'muted' });
      const noteText = element('span', {});
      const reopen = element('button', { type: 'button', 'data-replay-reopen': true, onclick: () => job.nativeId && void this.store.getState().actions.openReplay(job.nativeId, job.seatId, 'board') }, 'Read it again');
      const note = element('p', { class: 'muted replay-note', 'data-replay-note': true }, noteText, ' ', reopen);
      const cell = element('td', { colspan: JOB_COLUMNS.length }, element('h3', {}, `Files touched (up to ${FILES_TOUCHED_MAX}, most recent first)`), filesNote, files, note);
      const root = element('tr', { class: 'job-detail', 'data-job-detail': key }, cell);
      let pane: ReplayPane | null = null;
      if (job.replayable) {
        pane = new ReplayPane({ label: `Replay of ${job.label}`, loadOlder: () => void this.store.getState().actions.loadOlderReplay() });
        pane.mount(cell, note);
      }
      this.detail = { key, root, files, filesNote, note, noteText, reopen, pane, shownFiles: '' };
      this.rows.get(key)?.root.after(root);
    }
    const detail = this.detail!;
    detail.pane?.setAlias(job.alias);
    const own = replay && replay.seatId === job.seatId && replay.nativeId === job.nativeId ? replay : null;
    if (own) detail.pane?.update(own, own.pinned);
    let noteText = '';
    if (!job.replayable) noteText = 'This job cannot be replayed: its transcript is not located (or it recorded no id).';
    else if (!own) noteText = 'Its replay closed when another panel opened one.';
    setText(detail.noteText, noteText);
    detail.note.hidden = noteText === '';
    detail.reopen.hidden = !job.replayable || own !== null;
    this.renderFiles(detail, own ? filesTouched(own.lines.map((line) => line.entry)) : []);
    let filesText = '';
    if (!own || own.status === 'loading') filesText = job.replayable ? 'Read from its replay while it is expanded.' : 'Unknown without its replay.';
    else if (own.status !== 'ok') filesText = 'Unknown: the replay is unavailable.';
    else if (detail.files.childElementCount === 0) filesText = 'No file paths in the lines read so far.';
    setText(detail.filesNote, filesText);
    detail.filesNote.hidden = filesText === '';
  }

  private renderFiles(detail: Detail, files: ToolTarget[]): void {
    const signature = JSON.stringify(files);
    if (signature === detail.shownFiles) return;
    detail.shownFiles = signature;
    detail.files.replaceChildren(...files.map((file) => element('li', { 'data-file-path': file.path, 'data-file-action': file.action }, element('span', { class: 'muted' }, `${file.action} `), file.path)));
  }

  private disposeDetail(): void {
    if (!this.detail) return;
    this.detail.pane?.dispose();
    this.detail.root.remove();
    this.detail = null;
  }

  /** The parent link: the board steps aside (it would cover the centred agent) and the agent is picked. */
  private pickParent(personaId: string): void {
    this.store.getState().actions.closeJobs();
    this.pickAgent(personaId);
  }

  private select(key: string): void {
    this.focusKey = key;
    this.store.getState().actions.selectJob(key);
  }

  private onKey(event: KeyboardEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tr[data-job-key]');
    if (!row || event.target !== row) return;
    const keys = [...this.body.querySelectorAll<HTMLTableRowElement>('tr[data-job-key]')];
    const index = keys.indexOf(row);
    let next: HTMLTableRowElement | undefined;
    if (event.key === 'ArrowDown') next = keys[index + 1];
    else if (event.key === 'ArrowUp') next = keys[index - 1];
    else if (event.key === 'Home') next = keys[0];
    else if (event.key === 'End') next = keys[keys.length - 1];
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      return this.select(row.dataset.jobKey!);
    } else return;
    event.preventDefault();
    if (!next) return;
    this.focusKey = next.dataset.jobKey!;
    for (const candidate of keys) candidate.tabIndex = candidate === next ? 0 : -1;
    next.focus();
  }

  /** Main's clock (the board's own time), so elapsed times agree with what main reminds about. */
  private now(): number {
    return this.pastAt ?? Date.now() + this.store.getState().jobsClockOffsetMs;
  }

  private tick(): void {
    const now = this.now();
    for (const row of this.rows.values()) row.tick(now);
  }

  private clear(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.disposeDetail();
    for (const row of this.rows.values()) row.root.remove();
    for (const row of this.unlisted.values()) row.remove();
    this.rows.clear();
    this.unlisted.clear();
    this.focusKey = null;
  }
}

function select(name: string, options: Array<[string, string]>): HTMLSelectElement {
  return element('select', { 'data-jobs-filter': name }, ...options.map(([value, text]) => option(value, text)));
}

function option(value: string, text: string): HTMLOptionElement {
  return element('option', { value }, text);
}

function label(text: string, control: HTMLElement): HTMLElement {
  return element('label', {}, `${text} `, control);
}
