/**
 * The terminal panel (issue 39): an agent's live tmux pane in xterm.js, fed by tmux's control mode over the contract
 * (`terminal.watch`, then `terminal.output` events), never by polling the screen. Read-only until the owner presses
 * "Type"; typing then goes out as named keys and single characters (`terminal.keys`). Opens with T on a focused agent
 * or from its card; Escape (while not typing) or Close ends the stream. `data-panel="terminal"`,
 * `data-terminal-for`, `data-terminal-screen`, `data-terminal-type`, `data-terminal-state`.
 */
import type { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import type { AppStore } from '../store/createAppStore';
import type { TerminalActions } from '../store/terminalActions';
import { element, setAttribute, setText } from './dom';
import { keysOfInput } from './terminalKeys';

/** How often an open panel renews its stream's lease (main ends a stream nobody renews within 60 s). */
const RENEW_MS = 20_000;

/**
 * xterm.js writes its measured styles into `<style>` elements, which the page's CSP (`style-src 'self'`) refuses.
 * Their text is carried into one constructed style sheet instead (the CSS object model, which the CSP allows).
 */
function adoptInjectedStyles(root: HTMLElement): () => void {
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const copy = () => sheet.replaceSync([...root.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n'));
  const observer = new MutationObserver(copy);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  return () => {
    observer.disconnect();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((entry) => entry !== sheet);
  };
}

/** The panel. */
export class TerminalPanel {
  readonly root = element('aside', { 'data-panel': 'terminal', class: 'panel terminal-panel', role: 'dialog', 'aria-label': 'Terminal' });
  private readonly title = element('h2', { class: 'terminal-title', 'data-terminal-title': true });
  private readonly state = element('span', { class: 'muted', role: 'status', 'data-terminal-state': '' });
  private readonly type = element('button', { type: 'button', 'data-terminal-type': true, onclick: () => this.toggleTyping() }, 'Type');
  private readonly screen = element('div', { class: 'terminal-screen', 'data-terminal-screen': true });
  private terminal: Terminal | null = null;
  private session: { personaId: string; streamId: string | null; renew: ReturnType<typeof setInterval> | null; dropStyles: () => void } | null = null;
  private typing = false;

  constructor(
    private readonly store: AppStore,
    private readonly terminals: TerminalActions,
  ) {
    this.root.hidden = true;
    const close = element('button', { type: 'button', class: 'close', 'data-close': true, onclick: () => void this.close() }, 'Close');
    this.root.append(element('header', { class: 'terminal-header' }, this.title, this.type, close), this.state, this.screen);
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !this.typing) {
        event.preventDefault();
        void this.close();
      }
    });
    // T on a focused agent opens its terminal (the world's own keys ignore T).
    window.addEventListener('keydown', (event) => {
      if (event.key !== 't' && event.key !== 'T') return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.closest('[data-panel]'))) return;
      const focused = store.getState().ui.focused;
      if (!focused) return;
      event.preventDefault();
      void this.open(focused);
    });
  }

  /** The agent whose terminal is open, or null. */
  get personaId(): string | null {
    return this.session?.personaId ?? null;
  }

  /** Opens the panel on an agent's pane and starts its stream. */
  async open(personaId: string): Promise<void> {
    if (this.session?.personaId === personaId) return;
    await this.close();
    const name = this.store.getState().fleet?.personas.find((persona) => persona.id === personaId)?.name ?? personaId;
    setText(this.title, name);
    this.root.dataset.terminalFor = personaId;
    this.root.hidden = false;
    this.setTyping(false);
    this.status('connecting', 'Connecting…');
    // xterm.js is loaded the first time a terminal opens, not with the world.
    const { Terminal: XTerm } = await import('@xterm/xterm');
    if (this.root.dataset.terminalFor !== personaId) return;
    const terminal = new XTerm({ disableStdin: true, convertEol: false, fontSize: 13, scrollback: 1000, cursorBlink: false });
    const dropStyles = adoptInjectedStyles(this.screen);
    terminal.open(this.screen);
    terminal.onData((data) => {
      if (!this.typing || !this.session) return;
      const keys = keysOfInput(data);
      if (keys.length > 0) void this.terminals.keys(this.session.personaId, keys.slice(0, 64));
    });
    this.terminal = terminal;
    const session: NonNullable<TerminalPanel['session']> = { personaId, streamId: null, renew: null, dropStyles };
    this.session = session;
    try {
      const stream = await this.terminals.watch(
        personaId,
        (data) => this.session === session && terminal.write(data),
        (reason) => this.session === session && this.status('ended', `Ended: ${reason}`),
      );
      if (this.session !== session) {
        await this.terminals.unwatch(stream.streamId);
        return;
      }
      session.streamId = stream.streamId;
      terminal.resize(stream.cols, stream.rows);
      terminal.write(stream.screen);
      this.status('live', `${stream.target} · read-only`);
      session.renew = setInterval(() => void this.terminals.renew(personaId, stream.streamId), RENEW_MS);
    } catch (error) {
      if (this.session === session) this.status('error', error instanceof Error ? error.message : String(error));
    }
  }

  private status(state: string, text: string): void {
    setAttribute(this.state, 'data-terminal-state', state);
    setText(this.state, text);
  }

  private toggleTyping(): void {
    this.setTyping(!this.typing);
  }

  private setTyping(typing: boolean): void {
    this.typing = typing;
    setText(this.type, typing ? 'Stop typing' : 'Type');
    this.type.setAttribute('aria-pressed', String(typing));
    this.root.toggleAttribute('data-typing', typing);
    if (this.terminal) this.terminal.options.disableStdin = !typing;
    if (typing) this.terminal?.focus();
    if (this.session?.streamId) {
      const target = this.state.textContent?.split(' · ')[0] ?? '';
      this.status('live', `${target} · ${typing ? 'typing goes to the agent' : 'read-only'}`);
    }
  }

  /** Closes the panel and ends its stream. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    this.root.hidden = true;
    delete this.root.dataset.terminalFor;
    this.terminal?.dispose();
    this.terminal = null;
    this.screen.replaceChildren();
    if (!session) return;
    if (session.renew) clearInterval(session.renew);
    session.dropStyles();
    if (session.streamId) await this.terminals.unwatch(session.streamId);
  }
}
