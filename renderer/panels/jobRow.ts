/**
 * One row of the jobs board, built once per job key and updated in place: alias, label, subagent type, harness,
 * parent agent (a link that focuses and centres it in the world), foreground/background, start, elapsed time, tokens
 * ("?" when unknown, "≥" while partial), state or outcome, and the reminder mark. The row itself is the keyboard stop (roving focus, Enter expands).
 */
import { durationText, HARNESS_NAMES, roleText } from '../../shared/usagePhrases';
import { elapsedMs, type Job } from '../../shared/jobs';
import { costText, tokensText, totalTokens } from '../../shared/usagePhrases';
import { clockTime, element, setAttribute, setText } from './dom';

/** Columns of the board, in order (the header and every row). */
export const JOB_COLUMNS = ['Alias', 'Label', 'Type', 'Harness', 'Parent', 'Kind', 'Started', 'Elapsed', 'Tokens', 'State'] as const;

/** A job's tokens column: "?" when unknown (like the badges), "≥" while its totals cover only part of it. */
export function jobTokensText(usage: Job['usage']): string {
  return usage ? tokensText(totalTokens(usage.totals), usage.partial) : '?';
}

/** The tokens cell's tooltip: the cost when there is one, or why there is no figure. */
export function jobTokensTitle(usage: Job['usage']): string {
  if (!usage) return 'Tokens unknown: the harness recorded none for this subagent, or they are not read yet';
  return usage.cost ? `cost ${costText(usage.cost, usage.partial)}` : 'no price for this model';
}

/** An elapsed time in the one style of durations: "45 s", "3 min 12 s", "2 h 5 min". */
export function elapsedText(ms: number): string {
  return durationText(ms);
}

/** A job's state column: running, or ended with its outcome (an estimated end says so). */
export function jobStateText(job: Pick<Job, 'state' | 'outcome' | 'endedAtEstimated'>): string {
  if (job.state === 'running') return 'running';
  const outcome = job.outcome && job.outcome !== 'unknown' ? job.outcome : 'outcome unknown';
  return `ended: ${outcome}${job.endedAtEstimated ? ' (estimated)' : ''}`;
}

/** The reminder mark's text: how many reminders the job raised. */
export function reminderText(job: Pick<Job, 'reminder'>): string {
  if (!job.reminder) return '';
  return job.reminder.count === 1 ? 'reminded' : `reminded ×${job.reminder.count}`;
}

/** A board row. */
export class JobRow {
  readonly root: HTMLTableRowElement;
  job: Job;
  private readonly cells: Record<'alias' | 'label' | 'type' | 'harness' | 'kind' | 'started' | 'elapsed' | 'tokens' | 'state', HTMLElement>;
  private readonly parent: HTMLButtonElement;
  private readonly stateText = element('span', {});
  private readonly mark = element('span', { class: 'job-reminder', 'data-job-reminder': true, title: 'A background job running long' });
  private signature = '';

  constructor(
    readonly key: string,
    job: Job,
    handlers: { select(key: string): void; pickParent(personaId: string): void },
  ) {
    this.job = job;
    const cell = (name: string) => element('td', { class: `job-${name}` });
    this.cells = { alias: cell('alias'), label: cell('label'), type: cell('type'), harness: cell('harness'), kind: cell('kind'), started: cell('started'), elapsed: cell('elapsed'), tokens: cell('tokens'), state: cell('state') };
    this.cells.elapsed.dataset.jobElapsed = '';
    this.parent = element('button', {
      type: 'button',
      class: 'link',
      'data-job-parent': true,
      tabindex: -1,
      onclick: (event) => {
        event.stopPropagation();
        handlers.pickParent(this.job.personaId);
      },
    });
    this.mark.hidden = true;
    const { alias, label, type, harness, kind, started, elapsed, tokens, state } = this.cells;
    tokens.dataset.jobTokens = '';
    this.root = element('tr', { 'data-job-key': key, tabindex: -1, 'aria-expanded': 'false', onclick: () => handlers.select(key) }, alias, label, type, harness, element('td', { class: 'job-parent' }, this.parent), kind, started, elapsed, tokens, state);
    state.append(this.stateText, ' ', this.mark);
    this.update(job, false);
  }

  /** Shows the job; nothing is touched unless its data changed (elapsed ticks through `tick`). */
  update(job: Job, expanded: boolean): void {
    this.job = job;
    setAttribute(this.root, 'aria-expanded', String(expanded));
    const signature = JSON.stringify(job);
    if (signature === this.signature) return;
    this.signature = signature;
    setAttribute(this.root, 'data-job-alias', job.alias ?? '');
    setAttribute(this.root, 'data-job-state', job.state);
    setAttribute(this.root, 'data-job-kind', job.kind);
    setAttribute(this.root, 'data-job-harness', job.harness);
    setAttribute(this.root, 'data-job-seat', job.seatId);
    this.root.toggleAttribute('data-job-reminded', job.reminder !== undefined);
    // Each host keeps its own aliases: a remote job's alias is named with its host, so two hosts' explorer-1 differ.
    setText(this.cells.alias, job.alias === null ? '—' : job.host ? `${job.host}:${job.alias}` : job.alias);
    setText(this.cells.label, job.label);
    setText(this.cells.type, job.type ?? 'unknown');
    setText(this.cells.harness, HARNESS_NAMES[job.harness]);
    const where = job.host ? ` on ${job.host}` : '';
    setText(this.parent, job.role ? `${job.persona}${where} (${roleText(job.role)})` : `${job.persona}${where}`);
    if (job.host) this.root.setAttribute('data-host', job.host);
    else this.root.removeAttribute('data-host');
    this.parent.setAttribute('aria-label', `Show ${job.persona} in the world`);
    setText(this.cells.kind, job.kind);
    setText(this.cells.started, clockTime(job.startedAt));
    setText(this.cells.tokens, jobTokensText(job.usage));
    setAttribute(this.cells.tokens, 'title', jobTokensTitle(job.usage));
    setAttribute(this.cells.tokens, 'data-job-tokens', job.usage ? String(totalTokens(job.usage.totals)) : '');
    setAttribute(this.cells.tokens, 'data-job-tokens-partial', String(job.usage?.partial ?? false));
    setText(this.stateText, jobStateText(job));
    this.cells.state.className = `job-state state-${job.state}`;
    setText(this.mark, reminderText(job));
    this.mark.hidden = job.reminder === undefined;
  }

  /** Refreshes the elapsed time against `now` (main's clock, ms). */
  tick(now: number): void {
    setText(this.cells.elapsed, elapsedText(elapsedMs(this.job, now)));
  }
}
