/**
 * The profile panel of a station's role (the launch panel's look): description, charter, tools allowed and denied
 * (harness-neutral names), a preferred model per harness and a colour, checked with the shared profile rules before
 * and after main saves them, each problem shown beside its field. Below, the export of the saved profile as a
 * harness's agent definition: a preview of the file first, then Write; a refusal says why, and only a foreign or
 * edited file offers Overwrite. The form is built once per opening, so updates never disturb what the owner types.
 */
import { NEUTRAL_TOOLS, PROFILE_CHARTER_MAX, PROFILE_DESCRIPTION_MAX, type NeutralTool, type ProfileFieldError } from '../../shared/roleProfile';
import type { RoleExportResult } from '../../shared/contract';
import type { AppStore } from '../store/createAppStore';
import type { ProfileExportRequest, ProfileState } from '../store/appState';
import { element } from './dom';
import { HARNESS_LABELS } from './launchForm';
import { PROFILE_HARNESSES, defaultExportFolder, errorSlot, profileFormValues, profileOfForm, type ProfileFormValues } from './profileForm';
import { roleText } from '../../shared/usagePhrases';

const TOOL_LABELS: Record<NeutralTool, string> = { read: 'read', search: 'search', edit: 'edit', shell: 'shell', web: 'web', agents: 'agents' };
const SLOTS = ['description', 'charter', 'tools', ...PROFILE_HARNESSES.map((harness) => `models.${harness}`), 'colour', 'profile'];

interface Form {
  description: HTMLInputElement;
  charter: HTMLTextAreaElement;
  allowAll: HTMLInputElement;
  allow: Map<NeutralTool, HTMLInputElement>;
  deny: Map<NeutralTool, HTMLInputElement>;
  models: Map<string, HTMLInputElement>;
  colour: HTMLInputElement;
  save: HTMLButtonElement;
  errors: Map<string, HTMLElement>;
  harness: HTMLInputElement[];
  scope: HTMLInputElement[];
  folder: HTMLInputElement;
  exportButtons: HTMLButtonElement[];
}

/** The profile panel. */
export class ProfilePanel {
  readonly root = element('aside', { 'data-panel': 'profile', class: 'panel launch profile', role: 'dialog', 'aria-label': 'Role profile' });
  private readonly title = element('h2');
  private readonly source = element('p', { class: 'muted', 'data-profile-source': true });
  private readonly problem = element('p', { class: 'error', 'data-profile-problem': true, role: 'alert' });
  private readonly body = element('div', { class: 'launch-body' });
  private readonly status = element('p', { class: 'muted', 'data-profile-status': true, role: 'status' });
  private readonly error = element('p', { class: 'error', 'data-profile-failure': true, role: 'alert' });
  private readonly exportStatus = element('p', { class: 'muted', 'data-export-status': true, role: 'status' });
  private readonly refusal = element('div', { class: 'error', 'data-export-refusal': true, role: 'alert' });
  private readonly preview = element('pre', { class: 'profile-preview', 'data-export-preview': true });
  private shown: ProfileState | null = null;
  private form: Form | null = null;
  /** The last write asked for, so Overwrite repeats it with force. */
  private lastWrite: ProfileExportRequest | null = null;

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => store.getState().actions.closeProfile() }, 'Close');
    this.root.append(element('header', {}, this.title, close), this.source, this.problem, this.body, this.error, this.status);
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') store.getState().actions.closeProfile();
    });
    store.subscribe((state) => this.render(state.ui.profile));
  }

  private render(profile: ProfileState | null): void {
    if (profile === this.shown) return;
    const previous = this.shown;
    this.shown = profile;
    this.root.hidden = profile === null;
    if (!profile) {
      this.form = null;
      this.body.replaceChildren();
      return;
    }
    if (!previous || previous.stationKey !== profile.stationKey) {
      this.form = null;
      this.lastWrite = null;
      this.body.replaceChildren();
      this.title.textContent = `Profile of ${roleText(profile.role)}`;
      this.root.dataset.profileFor = profile.stationKey;
    }
    if (profile.view && !this.form) this.build(profile);
    const view = profile.view;
    this.source.textContent =
      profile.status === 'loading'
        ? 'Reading the profile…'
        : !view
          ? ''
          : view.source === 'file'
            ? `Kept in ${view.path}.`
            : view.source === 'default'
              ? `The built-in default; saving writes ${view.path}.`
              : `No profile yet; saving writes ${view.path}.`;
    this.problem.textContent = view?.problem ?? '';
    this.problem.hidden = !view?.problem;
    const busy = profile.status !== 'ready';
    if (this.form) this.form.save.disabled = busy;
    this.showErrors(profile.errors);
    this.status.textContent = profile.status === 'saving' ? 'Saving…' : profile.saved ? `Saved to ${profile.saved}.` : '';
    this.error.textContent = profile.error ?? '';
    this.error.hidden = profile.error === null;
    this.renderExport(profile);
  }

  private field(slot: string, label: string, control: HTMLElement, errors: Map<string, HTMLElement>): HTMLElement {
    const error = element('span', { class: 'field-error', 'data-profile-error': slot, role: 'alert' });
    errors.set(slot, error);
    return element('label', { class: 'launch-field' }, label, control, error);
  }

  private build(state: ProfileState): void {
    const values = profileFormValues(state.view?.profile ?? null);
    const errors = new Map<string, HTMLElement>();
    const description = element('input', { type: 'text', 'data-profile-field': 'description', value: values.description, maxlength: PROFILE_DESCRIPTION_MAX * 2, spellcheck: true });
    const charter = element('textarea', { 'data-profile-field': 'charter', rows: 6, maxlength: PROFILE_CHARTER_MAX });
    charter.value = values.charter;
    const allowAll = element('input', { type: 'checkbox', 'data-profile-allow-all': true, checked: values.allowAll });
    const box = (kind: 'allow' | 'deny', tool: NeutralTool, checked: boolean) => element('input', { type: 'checkbox', [`data-profile-${kind}`]: tool, checked });
    const allow = new Map(NEUTRAL_TOOLS.map((tool) => [tool, box('allow', tool, values.allow.includes(tool))]));
    const deny = new Map(NEUTRAL_TOOLS.map((tool) => [tool, box('deny', tool, values.deny.includes(tool))]));
    const syncAllow = () => {
      for (const input of allow.values()) input.disabled = allowAll.checked;
    };
    allowAll.addEventListener('change', syncAllow);
    syncAllow();
    const toolsError = element('span', { class: 'field-error', 'data-profile-error': 'tools', role: 'alert' });
    errors.set('tools', toolsError);
    const tools = element(
      'fieldset',
      { class: 'profile-tools' },
      element('legend', {}, 'Tools'),
      element('label', {}, allowAll, ' every tool the harness offers'),
      element('p', { class: 'profile-tool-row' }, 'Allowed: ', ...NEUTRAL_TOOLS.map((tool) => element('label', {}, allow.get(tool)!, ` ${TOOL_LABELS[tool]}`))),
      element('p', { class: 'profile-tool-row' }, 'Denied: ', ...NEUTRAL_TOOLS.map((tool) => element('label', {}, deny.get(tool)!, ` ${TOOL_LABELS[tool]}`))),
      toolsError,
    );
    const models = new Map(PROFILE_HARNESSES.map((harness) => [harness as string, element('input', { type: 'text', 'data-profile-model': harness, value: values.models[harness], maxlength: 120, spellcheck: false, placeholder: 'harness default' })]));
    const colour = element('input', { type: 'text', 'data-profile-field': 'colour', value: values.colour, maxlength: 7, spellcheck: false, placeholder: '#rrggbb' });
    const save = element('button', { type: 'submit', 'data-profile-save': true }, 'Save');
    const generalError = element('span', { class: 'field-error', 'data-profile-error': 'profile', role: 'alert' });
    errors.set('profile', generalError);
    const form = element(
      'form',
      { class: 'launch-form', onsubmit: (event: Event) => this.save(event) },
      this.field('description', 'Description (one line)', description, errors),
      this.field('charter', 'Charter', charter, errors),
      tools,
      element('fieldset', {}, element('legend', {}, 'Preferred model'), ...PROFILE_HARNESSES.map((harness) => this.field(`models.${harness}`, HARNESS_LABELS[harness], models.get(harness)!, errors))),
      this.field('colour', 'Colour', colour, errors),
      generalError,
      save,
    );
    const exporting = this.buildExport(state);
    this.form = { description, charter, allowAll, allow, deny, models, colour, save, errors, ...exporting };
    this.body.replaceChildren(form, exporting.section);
    description.focus();
  }

  private buildExport(state: ProfileState): Pick<Form, 'harness' | 'scope' | 'folder' | 'exportButtons'> & { section: HTMLElement } {
    const harness = PROFILE_HARNESSES.map((name, index) => element('input', { type: 'radio', name: 'export-harness', value: name, checked: index === 0 }));
    const scope = (['project', 'user'] as const).map((name, index) => element('input', { type: 'radio', name: 'export-scope', value: name, checked: index === 0 }));
    const folder = element('input', { type: 'text', 'data-export-folder': true, value: defaultExportFolder(this.store.getState().fleet, state.stationKey), maxlength: 4096, spellcheck: false, placeholder: '/path/to/project' });
    for (const input of scope) input.addEventListener('change', () => (folder.disabled = this.choice(scope) === 'user'));
    const previewButton = element('button', { type: 'button', 'data-export-preview-button': true, onclick: () => this.export(true, false) }, 'Preview');
    const write = element('button', { type: 'button', 'data-export-write': true, onclick: () => this.export(false, false) }, 'Write');
    const section = element(
      'section',
      { class: 'profile-export', 'data-profile-export': true },
      element('h3', {}, 'Export as an agent definition'),
      element('p', { class: 'muted' }, 'Writes the saved profile into the harness\'s own folder.'),
      element('fieldset', {}, element('legend', {}, 'Harness'), ...PROFILE_HARNESSES.map((name, index) => element('label', { 'data-export-harness': name }, harness[index], ` ${HARNESS_LABELS[name]}`))),
      element(
        'fieldset',
        {},
        element('legend', {}, 'Scope'),
        element('label', { 'data-export-scope': 'project' }, scope[0], ' this project: '),
        folder,
        element('label', { 'data-export-scope': 'user' }, scope[1], ' every project (the harness\'s user folder)'),
      ),
      element('p', { class: 'profile-export-actions' }, previewButton, ' ', write),
      this.exportStatus,
      this.refusal,
      this.preview,
    );
    return { harness, scope, folder, exportButtons: [previewButton, write], section };
  }

  private choice(inputs: HTMLInputElement[]): string {
    return inputs.find((input) => input.checked)?.value ?? inputs[0].value;
  }

  private values(): ProfileFormValues | null {
    const form = this.form;
    if (!form) return null;
    const checked = (map: Map<NeutralTool, HTMLInputElement>) => NEUTRAL_TOOLS.filter((tool) => map.get(tool)!.checked);
    return {
      description: form.description.value,
      charter: form.charter.value,
      allowAll: form.allowAll.checked,
      allow: checked(form.allow),
      deny: checked(form.deny),
      models: { claude: form.models.get('claude')!.value, opencode: form.models.get('opencode')!.value, codex: form.models.get('codex')!.value },
      colour: form.colour.value,
    };
  }

  private save(event: Event): void {
    event.preventDefault();
    const values = this.values();
    if (!values) return;
    const { profile, errors } = profileOfForm(values);
    // The same rules main applies: problems are shown at once, and main checks again before it writes.
    if (errors.length > 0) return this.showErrors(errors);
    void this.store.getState().actions.saveProfile(profile);
  }

  private showErrors(errors: readonly ProfileFieldError[]): void {
    if (!this.form) return;
    const bySlot = new Map<string, string[]>();
    for (const error of errors) {
      const slot = SLOTS.includes(errorSlot(error.field)) ? errorSlot(error.field) : 'profile';
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), error.message]);
    }
    for (const [slot, node] of this.form.errors) {
      const text = bySlot.get(slot)?.join('; ') ?? '';
      if (node.textContent !== text) node.textContent = text;
      node.hidden = text === '';
    }
  }

  private export(dryRun: boolean, force: boolean): void {
    const form = this.form;
    if (!form) return;
    const harness = this.choice(form.harness) as ProfileExportRequest['harness'];
    const scope = this.choice(form.scope) as ProfileExportRequest['scope'];
    const dir = form.folder.value.trim();
    if (scope === 'project' && !dir.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(dir)) {
      this.exportStatus.textContent = '';
      this.refusal.replaceChildren(element('span', { 'data-export-reason': true }, 'Type the project folder as a full path (starting with /).'));
      this.refusal.hidden = false;
      return;
    }
    const request: ProfileExportRequest = { harness, scope, ...(scope === 'project' ? { dir } : {}), dryRun, force };
    if (!dryRun) this.lastWrite = { ...request, force: false };
    void this.store.getState().actions.exportProfile(request);
  }

  private renderExport(state: ProfileState): void {
    if (!this.form) return;
    const { status, result, error } = state.export;
    for (const button of this.form.exportButtons) button.disabled = status === 'busy';
    this.exportStatus.textContent = status === 'busy' ? 'Working…' : result ? exportSentence(result) : '';
    const refusal = error ?? (result && !result.ok ? result.reason : null);
    this.refusal.hidden = refusal === null;
    if (refusal === null) this.refusal.replaceChildren();
    else {
      // Only a foreign or edited file may be replaced, and only on the owner's explicit Overwrite.
      const overwrite = result && !result.ok && result.code === 'refused' && this.lastWrite
        ? element('button', { type: 'button', 'data-export-force': true, onclick: () => this.lastWrite && void this.store.getState().actions.exportProfile({ ...this.lastWrite, force: true }) }, 'Overwrite')
        : null;
      this.refusal.replaceChildren(element('span', { 'data-export-reason': true }, refusal), ...(overwrite ? [' ', overwrite] : []));
    }
    const text = result?.ok ? result.text : '';
    if (this.preview.textContent !== text) this.preview.textContent = text;
    this.preview.hidden = text === '';
  }
}

/** One line about an export's outcome. */
export function exportSentence(result: RoleExportResult): string {
  if (!result.ok) return '';
  const existing =
    result.existing === 'foreign' ? ' A file Pixelfleet did not write is there; writing it needs Overwrite.' : result.existing === 'edited' ? ' The file there was edited since Pixelfleet wrote it; writing it needs Overwrite.' : '';
  switch (result.action) {
    case 'preview':
      return `Would write ${result.path} (agent "${result.name}").${existing}`;
    case 'written':
      return `Wrote ${result.path} (agent "${result.name}").`;
    case 'unchanged':
      return `${result.path} is already up to date.`;
    default:
      return result.action satisfies never;
  }
}
