/**
 * The one place that owns tmux for terminals (issue 39): which pane holds each persona (launched or adopted), its last
 * lines, typing a line, pressing named keys, and a live stream through a read-only control-mode client (`tmux -C`),
 * never by polling the screen. The rest of the app speaks of a persona's terminal; every tmux call is an argument
 * vector on the server `PIXELFLEET_TMUX_SOCKET` names (else the default one). Typed text goes to tmux only: it is never
 * logged or written anywhere.
 */
import { isAllowedKey, NAMED_KEYS, sendTextProblem } from '../../../shared/terminal';
import type { Persona } from '../../../shared/schemas';
import { resolveHarnessHomes } from '../../setup/paths';
import type { Harness } from '../../../shared/schemas';
import { HARNESS_OPTION, newSessionArgv, PERSONA_OPTION, tmuxSocketArgs } from '../launch/launchRules';
import { detectTmux, hasSession, runTmux, sessionForPersona } from '../launch/tmux';
import { matchPanes, type Pane, type PaneMatch } from './adoption';
import { openCodeLatestSession } from './harnessRecords';
import { readProcessTable } from './processes';
import { startPaneStream, type PaneStream, type StreamHandlers } from './paneStream';

/** An expected failure of a terminal operation, as a sentence for the owner. */
export type TerminalFailure = { ok: false; reason: string };

/**
 * The listing format of `list-panes -a`: space-separated, the session name last (it may hold spaces; tmux prints
 * control characters such as a tab as `_` outside a terminal, so no tab separates fields), the persona id before it
 * (an id has no spaces; empty when the session has none).
 */
const PANE_FORMAT = '#{pane_id} #{window_index} #{pane_index} #{pane_pid} #{@pixelfleet_persona} #{session_name}';

/** Milliseconds between the typed text and its Enter: a TUI that sees both at once may take Enter as part of a paste. */
const ENTER_AFTER_TEXT_MS = 120;

/** Parses a `list-panes -a -F PANE_FORMAT` listing. */
export function parsePanes(listing: string): Pane[] {
  const panes: Pane[] = [];
  for (const row of listing.split('\n')) {
    const [paneId, window, index, pid, persona, ...name] = row.split(' ');
    const session = name.join(' ');
    if (!paneId?.startsWith('%') || pid === undefined || !/^\d+$/.test(pid) || session === '') continue;
    panes.push({ paneId, session, pid: Number(pid), persona: persona ?? '', target: `${session}:${window}.${index}` });
  }
  return panes;
}

/** The terminal adapter over one environment (PATH, the tmux socket, the harness homes). */
export class TerminalAdapter {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private tmux(): { ok: true; executable: string } | TerminalFailure {
    return detectTmux(this.env);
  }

  private run(executable: string, args: string[]) {
    return runTmux(executable, [...tmuxSocketArgs(this.env), ...args], this.env);
  }

  /** Every pane of the server, or none when tmux or its server is not there. */
  async panes(): Promise<Pane[]> {
    const tmux = this.tmux();
    if (!tmux.ok) return [];
    const listed = await this.run(tmux.executable, ['list-panes', '-a', '-F', PANE_FORMAT]);
    return listed.ok ? parsePanes(listed.stdout) : [];
  }

  /** Each persona's pane (launched or adopted), or why it has none; one tmux listing and one process scan for all. */
  async locate(personas: readonly Persona[]): Promise<Map<string, PaneMatch>> {
    const tmux = this.tmux();
    if (!tmux.ok) return new Map(personas.map((persona) => [persona.id, { ok: false, reason: tmux.reason, uncertain: false }]));
    const panes = await this.panes();
    if (panes.length === 0) return new Map(personas.map((persona) => [persona.id, { ok: false, reason: 'No tmux server runs (or it has no panes).', uncertain: false }]));
    const table = await readProcessTable(this.env);
    const homes = resolveHarnessHomes(this.env);
    return matchPanes(personas, panes, table, { claudeHome: homes.claude, openCodeLatest: openCodeLatestSession });
  }

  /** The last `lines` lines of a pane as plain text (trailing blank lines dropped). */
  async peek(pane: Pane, lines: number): Promise<{ ok: true; lines: string[] } | TerminalFailure> {
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    const captured = await this.run(tmux.executable, ['capture-pane', '-p', '-t', pane.paneId, '-S', `-${lines}`]);
    if (!captured.ok) return { ok: false, reason: `tmux could not read ${pane.target}: ${captured.reason}` };
    const all = captured.stdout.replace(/\n$/, '').split('\n');
    while (all.length > 0 && all[all.length - 1].trim() === '') all.pop();
    return { ok: true, lines: all.slice(-lines) };
  }

  /** Types one line into a pane and presses Enter (shared/terminal.ts rule 1); refused text sends nothing. */
  async send(pane: Pane, text: string): Promise<{ ok: true } | TerminalFailure> {
    const problem = sendTextProblem(text);
    if (problem) return { ok: false, reason: problem };
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    const typed = await this.run(tmux.executable, ['send-keys', '-t', pane.paneId, '-l', '--', text]);
    if (!typed.ok) return { ok: false, reason: `tmux could not type into ${pane.target}: ${typed.reason}` };
    await new Promise((resolve) => setTimeout(resolve, ENTER_AFTER_TEXT_MS));
    const entered = await this.run(tmux.executable, ['send-keys', '-t', pane.paneId, 'Enter']);
    return entered.ok ? { ok: true } : { ok: false, reason: `tmux could not press Enter in ${pane.target}: ${entered.reason}` };
  }

  /** Presses named keys in order (shared/terminal.ts rule 2); one unknown key and nothing is pressed. */
  async keys(pane: Pane, keys: readonly string[]): Promise<{ ok: true } | TerminalFailure> {
    const refused = keys.find((key) => !isAllowedKey(key));
    if (refused !== undefined) return { ok: false, reason: `Only named keys (${NAMED_KEYS.join(' ')}) and single printable characters can be pressed; not ${JSON.stringify(refused.slice(0, 20))}.` };
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    for (const key of keys) {
      const args = (NAMED_KEYS as readonly string[]).includes(key) ? ['send-keys', '-t', pane.paneId, key] : ['send-keys', '-t', pane.paneId, '-l', '--', key];
      const pressed = await this.run(tmux.executable, args);
      if (!pressed.ok) return { ok: false, reason: `tmux could not press ${key} in ${pane.target}: ${pressed.reason}` };
    }
    return { ok: true };
  }

  /**
   * Starts `argv` in a new detached session in `cwd` and tags it with the persona and harness (launch rules 3, 5, 6):
   * the one way a harness is launched into tmux (hire and launch, dispatch).
   */
  async startSession(request: { session: string; cwd: string; argv: string[]; personaId: string; harness: Harness }): Promise<{ ok: true } | TerminalFailure> {
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    const started = await runTmux(tmux.executable, newSessionArgv({ session: request.session, cwd: request.cwd, argv: request.argv, env: this.env }), this.env);
    if (!started.ok) return { ok: false, reason: `tmux did not start the session: ${started.reason}` };
    await this.run(tmux.executable, ['set-option', '-t', `=${request.session}:`, PERSONA_OPTION, request.personaId]);
    await this.run(tmux.executable, ['set-option', '-t', `=${request.session}:`, HARNESS_OPTION, request.harness]);
    return { ok: true };
  }

  /** True when a session of exactly that name runs. */
  async sessionExists(session: string): Promise<boolean> {
    const tmux = this.tmux();
    return tmux.ok ? hasSession(tmux.executable, session, this.env) : false;
  }

  /** The running session tagged with a persona's id (launch rule 6), or null. */
  async sessionTaggedWith(personaId: string): Promise<string | null> {
    const tmux = this.tmux();
    return tmux.ok ? sessionForPersona(tmux.executable, personaId, this.env) : null;
  }

  /** The harness a launched session was tagged with, or null. */
  async sessionHarness(session: string): Promise<string | null> {
    const tmux = this.tmux();
    if (!tmux.ok) return null;
    const tagged = await this.run(tmux.executable, ['show-options', '-v', '-t', `=${session}:`, HARNESS_OPTION]);
    return tagged.ok ? tagged.stdout.trim() : null;
  }

  /** Types a line into a session's active pane and presses Enter (the harness's exit command; never owner text). */
  async typeIntoSession(session: string, line: string): Promise<void> {
    const tmux = this.tmux();
    if (!tmux.ok) return;
    await this.run(tmux.executable, ['send-keys', '-t', `=${session}:`, '-l', line]);
    await this.run(tmux.executable, ['send-keys', '-t', `=${session}:`, 'Enter']);
  }

  /** Ends a session. */
  async killSession(session: string): Promise<{ ok: true } | TerminalFailure> {
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    const killed = await this.run(tmux.executable, ['kill-session', '-t', `=${session}`]);
    return killed.ok ? { ok: true } : { ok: false, reason: killed.reason };
  }

  /** Starts a live stream of a pane: its screen now, then what it writes (a read-only control-mode client). */
  async stream(pane: Pane, handlers: StreamHandlers): Promise<{ ok: true; stream: PaneStream } | TerminalFailure> {
    const tmux = this.tmux();
    if (!tmux.ok) return tmux;
    return startPaneStream({ executable: tmux.executable, socketArgs: tmuxSocketArgs(this.env), env: this.env, pane, run: (args) => this.run(tmux.executable, args) }, handlers);
  }
}
