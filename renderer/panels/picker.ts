/**
 * The role picker for the focused agent (R): reads `roles.list` on open — built-ins with counts first, then custom
 * roles — plus a field for a new custom role checked live with the shared role rules and their messages.
 */
import { parseRole, roleKey } from '../../shared/roles';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { element, present } from './dom';
import { closeOnEscape, keepTabInside } from './panelKeys';
import { pixelTitle } from './pixelTitle';
import { NO_ROLE, roleText } from '../../shared/usagePhrases';

/** The picker panel. */
export class PickerPanel {
  readonly root = element('div', { 'data-panel': 'picker', class: 'panel picker', role: 'dialog', 'aria-label': 'Choose a role' });
  private shown: { picker: string | null; roles: AppState['roles'] } = { picker: null, roles: null };

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
    closeOnEscape(this.root, () => this.close());
    keepTabInside(this.root);
    store.subscribe((state) => this.render(state));
  }

  private close(): void {
    const personaId = this.store.getState().ui.picker;
    this.store.getState().actions.closePicker();
    if (personaId) document.querySelector<HTMLElement>(`[data-agent="${CSS.escape(personaId)}"]`)?.focus();
  }

  private choose(role: string | null): void {
    const personaId = this.store.getState().ui.picker;
    if (!personaId) return;
    void this.store.getState().actions.setRole(personaId, role);
    this.close();
  }

  private render(state: AppState): void {
    const { picker } = state.ui;
    if (picker === this.shown.picker && state.roles === this.shown.roles) return;
    const opening = picker !== null && this.shown.picker !== picker;
    this.shown = { picker, roles: state.roles };
    this.root.hidden = picker === null;
    if (picker === null) {
      this.root.replaceChildren();
      return;
    }
    const persona = state.fleet?.personas.find((entry) => entry.id === picker);
    const roles = state.roles ?? [];
    // The agent's role now (a change on its way counts): its option is marked, so the owner sees where it stands.
    const pending = state.ui.pending[picker];
    const current = pending ? pending.role : (persona?.role ?? null);
    const isCurrent = (role: string | null) => (role === null ? current === null : current !== null && roleKey(role) === roleKey(current));
    const mark = (role: string | null) => (isCurrent(role) ? { 'aria-current': 'true', class: 'current' } : {});
    const option = (role: string, count: number) =>
      element(
        'li',
        {},
        element('button', { type: 'button', 'data-role-option': role, ...mark(role), onclick: () => this.choose(role) }, `${roleText(role)} (${count})`, isCurrent(role) ? element('span', { class: 'current-mark' }, ' ● current') : null),
      );
    const builtIns = roles.filter((entry) => entry.builtIn).map((entry) => option(entry.role, entry.count));
    const customs = roles.filter((entry) => !entry.builtIn).map((entry) => option(entry.role, entry.count));
    const placeholder = 'New role, e.g. Sound Designer';
    const input = element('input', { type: 'text', 'data-custom-role': true, 'aria-label': 'New custom role', placeholder, size: placeholder.length, maxlength: 60 });
    const message = element('p', { class: 'error', 'data-role-error': true, role: 'alert' });
    const assign = element('button', { type: 'submit', 'data-assign': true, disabled: true }, 'Assign');
    input.addEventListener('input', () => {
      const parsed = parseRole(input.value);
      message.textContent = input.value.length === 0 || parsed.ok ? '' : parsed.reason;
      assign.disabled = !parsed.ok;
      input.setAttribute('aria-invalid', input.value.length > 0 && !parsed.ok ? 'true' : 'false');
    });
    const form = element('form', { class: 'picker-new' }, input, assign, message);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const parsed = parseRole(input.value);
      if (parsed.ok) this.choose(parsed.role);
      else message.textContent = parsed.reason;
    });
    this.root.replaceChildren(
      ...present(
      pixelTitle(`Role for ${persona?.name ?? 'agent'}`),
      element('p', { class: 'muted picker-now', 'data-current-role': current ?? '' }, `Now: ${current === null ? `${NO_ROLE} (lobby)` : roleText(current)}`),
      state.roles === null ? element('p', { class: 'muted' }, 'Reading roles…') : null,
      element('ul', { class: 'roles', 'data-roles': 'built-in' }, ...builtIns),
      customs.length > 0 ? element('h3', {}, 'Custom roles') : null,
      element('ul', { class: 'roles', 'data-roles': 'custom' }, ...customs),
      element('button', { type: 'button', 'data-role-option': '', ...mark(null), onclick: () => this.choose(null) }, 'No role (lobby)', isCurrent(null) ? element('span', { class: 'current-mark' }, ' ● current') : null),
      form,
      element('button', { type: 'button', class: 'close', onclick: () => this.close() }, 'Cancel'),
    ));
    if (opening || this.root.contains(document.activeElement) === false) {
      (this.root.querySelector<HTMLElement>('[data-role-option]') ?? input).focus();
    }
  }
}
