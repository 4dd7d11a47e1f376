/**
 * The attach line of an agent's card: for an agent launched in tmux, the `tmux attach -t …` command with a Copy button,
 * and "Open terminal" when settings name a terminal that was found. Asked once each time the card opens for an agent.
 */
import type { AttachInfo } from '../../shared/launch';
import type { AppStore } from '../store/createAppStore';
import { element } from './dom';

/** Copies text to the clipboard; falls back to selecting it in a text field when the Clipboard API is refused. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = element('textarea', { readonly: true, class: 'offscreen' });
    field.value = text;
    document.body.append(field);
    field.select();
    const copied = document.execCommand('copy');
    field.remove();
    return copied;
  }
}

/** The row; `show` when the card opens for an agent, `hide` when it closes. */
export class AttachRow {
  readonly root = element('div', { class: 'agent-card-attach', 'data-attach': true });
  private personaId: string | null = null;

  constructor(private readonly store: AppStore) {
    this.root.hidden = true;
  }

  /** Asks main for the agent's session (once per opening) and shows its attach command. */
  show(personaId: string): void {
    if (personaId === this.personaId) return;
    this.personaId = personaId;
    this.root.hidden = true;
    this.root.replaceChildren();
    void this.store
      .getState()
      .actions.attachInfo(personaId)
      .then((info) => {
        if (this.personaId === personaId) this.render(personaId, info);
      });
  }

  /** Forgets the agent, so the next opening asks again. */
  hide(): void {
    this.personaId = null;
    this.root.hidden = true;
  }

  private render(personaId: string, info: AttachInfo | null): void {
    if (!info?.command) return;
    const command = info.command;
    const status = element('span', { class: 'muted', role: 'status' });
    const copy = element(
      'button',
      {
        type: 'button',
        'data-attach-copy': true,
        onclick: () => void copyText(command).then((copied) => (status.textContent = copied ? 'Copied.' : 'Select the command and copy it.')),
      },
      'Copy',
    );
    const open = info.terminal
      ? element('button', { type: 'button', 'data-attach-terminal': true, onclick: () => void this.store.getState().actions.openTerminal(personaId) }, 'Open terminal')
      : null;
    this.root.replaceChildren(element('code', { 'data-attach-command': true }, command), copy, ...(open ? [open] : []), status);
    this.root.hidden = false;
  }
}
