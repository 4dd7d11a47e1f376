/**
 * The action that fits why an agent waits (issue 39): a reply box for a question, a plan, a finished turn, an
 * interruption or an error (Enter sends), Approve / Deny for an approval (the harness's own dialog keys). After a
 * send it says "sent" until the agent's records show it took the reply; the wait then ends and the entry leaves the
 * queue as before. Used by the needs-you entry and the agent's card. `data-reply-for`, `data-reply-input`,
 * `data-reply-send`, `data-act`, `data-reply-status`.
 */
import type { NeedsWhy } from '../../shared/schemas';
import { SEND_MAX_BYTES, sendTextProblem } from '../../shared/terminal';
import type { TerminalActions } from '../store/terminalActions';
import { element, setAttribute, setText } from './dom';

/** Which action fits a reason: approval gets Approve/Deny, every other wait a reply box. */
export function actionFor(why: NeedsWhy): 'reply' | 'approve' {
  return why === 'approval' ? 'approve' : 'reply';
}

/** One agent's reply box or approval buttons; `update` with each reason, `dispose` when it goes. */
export class ReplyBox {
  readonly root: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly send: HTMLButtonElement;
  private readonly approve: HTMLButtonElement;
  private readonly deny: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly off: () => void;
  private why: NeedsWhy | null = null;
  private error: string | null = null;

  constructor(
    private readonly personaId: string,
    private readonly terminals: TerminalActions,
  ) {
    this.input = element('input', { type: 'text', class: 'reply-input', 'data-reply-input': true, 'aria-label': 'Reply', placeholder: 'Reply…', maxlength: SEND_MAX_BYTES, autocomplete: 'off' });
    this.input.addEventListener('keydown', (event) => {
      // The world's keys stay out of the box; Enter sends.
      event.stopPropagation();
      if (event.key === 'Enter') {
        event.preventDefault();
        void this.sendReply();
      }
    });
    this.input.addEventListener('input', () => {
      if (this.error === null) return;
      this.error = null;
      this.showStatus();
    });
    this.send = element('button', { type: 'button', 'data-reply-send': true, onclick: () => void this.sendReply() }, 'Send');
    this.approve = element('button', { type: 'button', 'data-act': 'approve', onclick: () => void this.press('approve') }, 'Approve');
    this.deny = element('button', { type: 'button', 'data-act': 'deny', onclick: () => void this.press('deny') }, 'Deny');
    this.status = element('span', { class: 'reply-status muted', role: 'status', 'data-reply-status': '' });
    this.root = element('div', { class: 'reply-box', 'data-reply-for': personaId }, this.input, this.send, this.approve, this.deny, this.status);
    this.off = terminals.onChange(() => this.showStatus());
  }

  /** Shows the action for the agent's reason (null: it does not wait, nothing to show). */
  update(why: NeedsWhy | null): void {
    if (why === this.why) return;
    this.why = why;
    this.root.hidden = why === null;
    const action = why === null ? null : actionFor(why);
    this.input.hidden = action !== 'reply';
    this.send.hidden = action !== 'reply';
    this.approve.hidden = action !== 'approve';
    this.deny.hidden = action !== 'approve';
    setAttribute(this.root, 'data-action', action ?? '');
    this.showStatus();
  }

  private showStatus(): void {
    const sent = this.terminals.sent.has(this.personaId);
    const text = this.error ?? (sent ? 'sent' : '');
    setText(this.status, text);
    setAttribute(this.status, 'data-reply-status', this.error ? 'error' : sent ? 'sent' : '');
  }

  private async sendReply(): Promise<void> {
    const text = this.input.value;
    const problem = sendTextProblem(text);
    if (problem) return this.fail(problem);
    this.send.disabled = true;
    const outcome = await this.terminals.reply(this.personaId, text);
    this.send.disabled = false;
    if (!outcome.ok) return this.fail(outcome.reason);
    this.input.value = '';
    this.error = null;
    this.showStatus();
  }

  private async press(action: 'approve' | 'deny'): Promise<void> {
    const outcome = await this.terminals.act(this.personaId, action);
    this.error = outcome.ok ? null : outcome.reason;
    if (outcome.ok) setText(this.status, action === 'approve' ? 'approved' : 'denied');
    else this.showStatus();
  }

  private fail(reason: string): void {
    this.error = reason;
    this.showStatus();
  }

  /** Stops listening. */
  dispose(): void {
    this.off();
  }
}
