/**
 * The acting row of an agent's card (issue 39): the action that fits why it waits (reply box or Approve / Deny),
 * Interrupt behind a confirmation (the harness's own interrupt key), and Terminal, which opens the terminal panel.
 * Shown for an agent whose terminal Pixelfleet can reach (asked once each time the card opens), else the reason.
 * `data-act-row`, `data-act="interrupt"`, `data-act-confirm`, `data-open-terminal`, `data-terminal-missing`.
 */
import type { NeedsWhy } from '../../shared/schemas';
import type { TerminalActions } from '../store/terminalActions';
import { element, setText } from './dom';
import { ReplyBox } from './replyBox';

/** The row; `show` with the card's agent and its wait, `hide` when the card closes. */
export class ActRow {
  readonly root = element('div', { class: 'agent-card-act', 'data-act-row': true });
  private personaId: string | null = null;
  private reply: ReplyBox | null = null;
  private why: NeedsWhy | null = null;
  private readonly controls = element('div', { class: 'act-controls' });
  private readonly confirm = element('div', { class: 'act-confirm', 'data-act-confirm': true });
  private readonly note = element('span', { class: 'muted', role: 'status', 'data-act-status': true });
  private readonly missing = element('span', { class: 'muted', 'data-terminal-missing': true });

  constructor(
    private readonly terminals: TerminalActions,
    private readonly openTerminal: (personaId: string) => void,
  ) {
    this.root.hidden = true;
    this.confirm.hidden = true;
  }

  /** Shows the row for an agent (asking main where its terminal is, once per opening) and its current wait. */
  show(personaId: string, why: NeedsWhy | null): void {
    this.why = why;
    if (personaId === this.personaId) {
      this.reply?.update(why);
      return;
    }
    this.hide();
    this.personaId = personaId;
    void this.terminals.locate(personaId).then((location) => {
      if (this.personaId !== personaId) return;
      if (!location?.terminal) {
        setText(this.missing, `No terminal: ${location?.reason ?? 'Pixelfleet could not ask where it is.'}`);
        this.root.replaceChildren(this.missing);
        this.root.hidden = false;
        return;
      }
      this.render(personaId);
    });
  }

  private render(personaId: string): void {
    this.reply = new ReplyBox(personaId, this.terminals);
    this.reply.update(this.why);
    const interrupt = element('button', { type: 'button', 'data-act': 'interrupt', onclick: () => this.askInterrupt(personaId) }, 'Interrupt');
    const terminal = element('button', { type: 'button', 'data-open-terminal': true, title: 'Terminal (T)', onclick: () => this.openTerminal(personaId) }, 'Terminal');
    this.controls.replaceChildren(terminal, interrupt);
    this.root.replaceChildren(this.reply.root, this.controls, this.confirm, this.note);
    this.root.hidden = false;
  }

  private askInterrupt(personaId: string): void {
    const yes = element('button', { type: 'button', class: 'danger', 'data-act-confirm-yes': true, onclick: () => void this.interrupt(personaId) }, 'Yes, interrupt');
    const no = element('button', { type: 'button', 'data-act-confirm-no': true, onclick: () => (this.confirm.hidden = true) }, 'Cancel');
    this.confirm.replaceChildren(element('span', {}, 'Interrupt what it is doing? '), yes, no);
    this.confirm.hidden = false;
    no.focus();
  }

  private async interrupt(personaId: string): Promise<void> {
    this.confirm.hidden = true;
    const outcome = await this.terminals.act(personaId, 'interrupt');
    setText(this.note, outcome.ok ? 'Interrupt sent.' : outcome.reason);
  }

  /** Forgets the agent, so the next opening asks again. */
  hide(): void {
    this.personaId = null;
    this.reply?.dispose();
    this.reply = null;
    this.root.hidden = true;
    this.confirm.hidden = true;
    this.root.replaceChildren();
    setText(this.note, '');
  }
}
