/**
 * The launch panel of a station: harness (those on PATH; the others greyed with the reason), project folder (recent
 * folders from discovery, or typed), name (generated, editable) and an optional first prompt. Without tmux it says why
 * and how to install it, and offers nothing else. The form is built once per opening, so updates never disturb what
 * the owner is typing; refusals and unseated outcomes are shown in the panel.
 */
import { NAME_MAX_LENGTH } from '../../shared/bounds';
import type { LaunchOptions } from '../../shared/launch';
import type { Harness } from '../../shared/schemas';
import type { LaunchState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { element, present } from './dom';
import { defaultLaunchForm, HARNESS_LABELS, launchingText, launchRequestOf, type LaunchFormValues } from './launchForm';
import { roleText } from '../../shared/usagePhrases';

interface Form {
  options: LaunchOptions;
  harness: HTMLInputElement[];
  folder: HTMLInputElement;
  name: HTMLInputElement;
  prompt: HTMLTextAreaElement;
  /** The "own git worktree" toggle, offered when a backlog item is dispatched. */
  worktree: HTMLInputElement | null;
  submit: HTMLButtonElement;
}

/** The launch panel. */
export class LaunchPanel {
  readonly root = element('aside', { 'data-panel': 'launch', class: 'panel launch', role: 'dialog', 'aria-label': 'Launch an agent' });
  private readonly title = element('h2');
  private readonly body = element('div', { class: 'launch-body' });
  private readonly status = element('p', { class: 'muted', 'data-launch-status': true, role: 'status' });
  private readonly error = element('p', { class: 'error', 'data-launch-error': true, role: 'alert' });
  private readonly outcome = element('div', { class: 'launch-outcome', 'data-launch-outcome': true });
  private shown: LaunchState | null = null;
  private form: Form | null = null;
  /** While a launch runs: when it began and the 1 s timer that ticks the waited seconds (none otherwise). */
  private waiting: { since: number; timer: ReturnType<typeof setInterval> } | null = null;

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => store.getState().actions.closeLaunch() }, 'Close');
    this.root.append(element('header', {}, this.title, close), this.body, this.error, this.status, this.outcome);
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') store.getState().actions.closeLaunch();
    });
    store.subscribe((state) => this.render(state.ui.launch));
  }

  private render(launch: LaunchState | null): void {
    if (launch === this.shown) return;
    const previous = this.shown;
    this.shown = launch;
    this.root.hidden = launch === null;
    if (!launch) {
      this.followWaiting(false);
      this.form = null;
      this.body.replaceChildren();
      return;
    }
    if (!previous || previous.stationKey !== launch.stationKey || previous.item !== launch.item) {
      this.form = null;
      this.body.replaceChildren();
      this.title.textContent = launch.item ? `Dispatch “${launch.item.title}” at ${roleText(launch.role)}` : `Launch at ${roleText(launch.role)}`;
      this.root.dataset.launchFor = launch.stationKey;
      if (launch.item) this.root.dataset.launchItem = launch.item.id;
      else delete this.root.dataset.launchItem;
    }
    if (launch.options && this.form?.options !== launch.options) this.build(launch.options, launch);
    const busy = launch.status === 'launching';
    if (this.form) for (const control of [this.form.folder, this.form.name, this.form.prompt, this.form.submit]) control.disabled = busy;
    this.followWaiting(busy);
    if (!busy) this.status.textContent = launch.status === 'loading' ? 'Looking for harnesses and recent folders…' : '';
    this.error.textContent = launch.error ?? '';
    this.error.hidden = launch.error === null;
    this.renderOutcome(launch);
  }

  /** Starts the waited-seconds line when a launch begins and stops its timer when the launch ends or the panel closes. */
  private followWaiting(busy: boolean): void {
    if (busy && !this.waiting) {
      const since = Date.now();
      const tick = () => (this.status.textContent = launchingText(Date.now() - since));
      tick();
      this.waiting = { since, timer: setInterval(tick, 1000) };
    } else if (!busy && this.waiting) {
      clearInterval(this.waiting.timer);
      this.waiting = null;
    }
  }

  private build(options: LaunchOptions, launch: LaunchState): void {
    if (options.unavailable) {
      this.form = null;
      this.body.replaceChildren(element('p', { class: 'error', 'data-launch-unavailable': true }, options.unavailable));
      return;
    }
    const values = defaultLaunchForm(options);
    const harness = options.harnesses.map((entry) =>
      element('input', { type: 'radio', name: 'launch-harness', value: entry.harness, disabled: !entry.available, checked: entry.harness === values.harness }),
    );
    const choices = options.harnesses.map((entry, index) =>
      element(
        'label',
        { class: entry.available ? 'launch-harness' : 'launch-harness muted', 'data-launch-harness': entry.harness, title: entry.reason ?? undefined },
        harness[index],
        ` ${HARNESS_LABELS[entry.harness]}`,
        entry.available ? null : element('span', { class: 'launch-reason' }, ` — ${entry.reason ?? 'not available'}`),
      ),
    );
    const folder = element('input', { type: 'text', 'data-launch-folder': true, list: 'launch-folders', value: values.cwd, maxlength: 4096, spellcheck: false, placeholder: '/path/to/project' });
    const folders = element('datalist', { id: 'launch-folders' }, ...options.folders.map((path) => element('option', { value: path })));
    const name = element('input', { type: 'text', 'data-launch-name': true, value: values.name, maxlength: NAME_MAX_LENGTH });
    const prompt = element('textarea', { 'data-launch-prompt': true, rows: launch.item ? 6 : 3, maxlength: 20_000, placeholder: 'Optional' });
    if (launch.prompt) prompt.value = launch.prompt;
    const worktree = launch.item ? element('input', { type: 'checkbox', 'data-launch-worktree': true }) : null;
    const submit = element('button', { type: 'submit', 'data-launch-submit': true }, 'Launch');
    const recent =
      options.folders.length > 0
        ? element('p', { class: 'launch-recent' }, 'Recent: ', ...options.folders.slice(0, 4).map((path) => element('button', { type: 'button', class: 'link', 'data-launch-recent': path, onclick: () => (folder.value = path) }, path)))
        : element('p', { class: 'muted' }, 'No recent folders found; type one.');
    const form = element(
      'form',
      { class: 'launch-form', onsubmit: (event: Event) => this.submit(event) },
      element('fieldset', {}, element('legend', {}, 'Harness'), ...choices),
      element('label', { class: 'launch-field' }, 'Project folder', folder),
      folders,
      recent,
      element('label', { class: 'launch-field' }, 'Name', name),
      element('label', { class: 'launch-field' }, 'First prompt', prompt),
      worktree ? element('label', { class: 'launch-worktree' }, worktree, ' In its own git worktree (branch pf/…, from the folder’s HEAD)') : null,
      submit,
    );
    this.form = { options, harness, folder, name, prompt, worktree, submit };
    this.body.replaceChildren(form);
    (harness.find((input) => input.checked) ?? folder).focus();
  }

  private values(): LaunchFormValues | null {
    if (!this.form) return null;
    const checked = this.form.harness.find((input) => input.checked);
    return { harness: (checked?.value as Harness | undefined) ?? null, cwd: this.form.folder.value, name: this.form.name.value, prompt: this.form.prompt.value };
  }

  private submit(event: Event): void {
    event.preventDefault();
    const values = this.values();
    if (!this.form || !values) return;
    const checked = launchRequestOf(values, this.form.options);
    if (!checked.ok) {
      this.error.textContent = checked.reason;
      this.error.hidden = false;
      return;
    }
    void this.store.getState().actions.launch(checked.request, this.form.worktree?.checked === true);
  }

  private renderOutcome(launch: LaunchState): void {
    const result = launch.result;
    this.outcome.hidden = result === null;
    if (!result) return this.outcome.replaceChildren();
    this.outcome.replaceChildren(
      ...present(
      element('p', { 'data-launch-reason': true }, `${result.persona.name} was hired as ${roleText(launch.role)}, without a seat yet: ${result.reason ?? ''}`),
      result.note ? element('p', { class: 'muted' }, result.note) : null,
      element('p', {}, 'Attach with: ', element('code', { 'data-launch-attach': true }, result.attach)),
      ),
    );
  }
}
