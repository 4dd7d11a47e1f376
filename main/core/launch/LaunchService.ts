/**
 * Hire and launch for the app's clients: what the launch panel may offer, the launch itself (through the launcher),
 * the attach command of a persona's session, and opening the configured terminal attached to it. Every program runs
 * from an argument vector.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { AttachInfo, LaunchOptions, LaunchRequest, LaunchResult } from '../../../shared/launch';
import { LAUNCH_RECENT_FOLDERS } from '../../../shared/launch';
import type { Candidate } from '../../../shared/schemas';
import type { FleetService } from '../fleet/FleetService';
import { generatePersonaName } from '../personas/names';
import type { PersonaService } from '../personas/PersonaService';
import type { TerminalConfig } from '../../setup/settings/settingsSchema';
import { attachCommand, terminalArgv } from './launchRules';
import { launch, personaSession } from './launcher';
import { TerminalAdapter } from '../terminal/TerminalAdapter';
import { detectHarnesses, detectTmux, findOnPath } from './tmux';

/** What the service needs. */
export interface LaunchServiceOptions {
  fleet: FleetService;
  personas: PersonaService;
  env: NodeJS.ProcessEnv;
  terminal: TerminalConfig;
  /** How long Codex/OpenCode get to show a new session (default 60 s). */
  seatDeadlineMs?: number;
}

/** The working folders of discovered sessions, most recent first, each once (candidates come newest first). */
export function recentFolders(candidates: readonly Candidate[], limit = LAUNCH_RECENT_FOLDERS): string[] {
  const folders: string[] = [];
  for (const candidate of candidates) {
    const cwd = candidate.seat.cwd;
    if (!cwd || !path.isAbsolute(cwd) || folders.includes(cwd)) continue;
    folders.push(cwd);
    if (folders.length === limit) break;
  }
  return folders;
}

/** The configured terminal's program when it is found (absolute, or on PATH), else null: opening one is then off. */
export function terminalProgram(terminal: TerminalConfig, env: NodeJS.ProcessEnv): string | null {
  if (!terminal) return null;
  const [program] = terminal.command;
  if (path.isAbsolute(program)) return findOnPath(path.basename(program), { PATH: path.dirname(program) });
  return program.includes('/') ? null : findOnPath(program, env);
}

/** Launch, attach and terminal for the contract's handlers. */
export class LaunchService {
  constructor(private readonly options: LaunchServiceOptions) {}

  /** tmux, each harness, recent folders and a suggested name. */
  async launchOptions(): Promise<LaunchOptions> {
    const { env } = this.options;
    const tmux = detectTmux(env);
    const harnesses = detectHarnesses(env).map((entry) => (entry.ok ? { harness: entry.harness, available: true, reason: null } : { harness: entry.harness, available: false, reason: entry.reason }));
    const [candidates, personas] = await Promise.all([this.options.fleet.candidates(), this.options.personas.list()]);
    const suggestedName = generatePersonaName(
      personas.map((persona) => persona.name),
      (count) => Math.floor(Math.random() * count),
    );
    return { unavailable: tmux.ok ? null : tmux.reason, harnesses, folders: recentFolders(candidates), suggestedName };
  }

  /** Hires, starts and seats (see launcher.ts). */
  async launch(request: LaunchRequest): Promise<LaunchResult> {
    const { env } = this.options;
    const result = await launch(request, { fleet: this.options.fleet, personas: this.options.personas, env, seatDeadlineMs: this.options.seatDeadlineMs });
    return { persona: result.persona, tmuxSession: result.tmuxSession, attach: attachCommand(result.tmuxSession, env), seated: result.seated, reason: result.reason, note: result.note };
  }

  /** The running session of a persona and its attach command. */
  async attach(personaId: string): Promise<AttachInfo> {
    const { env } = this.options;
    const tmux = detectTmux(env);
    const terminal = terminalProgram(this.options.terminal, env) !== null;
    if (!tmux.ok) return { session: null, command: null, terminal };
    const { session } = await personaSession(this.options.personas, personaId, env);
    if (!(await new TerminalAdapter(env).sessionExists(session))) return { session: null, command: null, terminal };
    return { session, command: attachCommand(session, env), terminal };
  }

  /** Opens the configured terminal attached to the persona's session; a reason when it cannot. */
  async openTerminal(personaId: string): Promise<{ opened: boolean; reason: string | null }> {
    const { env, terminal } = this.options;
    const program = terminalProgram(terminal, env);
    if (!terminal || !program) {
      return { opened: false, reason: terminal ? `The terminal ${terminal.command[0]} in settings.json was not found.` : 'No terminal is set in settings.json ("terminal": {"command": [...]}).' };
    }
    const tmux = detectTmux(env);
    if (!tmux.ok) return { opened: false, reason: tmux.reason };
    const info = await this.attach(personaId);
    if (!info.session) return { opened: false, reason: 'No tmux session runs for this agent.' };
    const [, ...rest] = terminalArgv(terminal.command, tmux.executable, info.session, env);
    return new Promise((resolve) => {
      const child = spawn(program, rest, { env, detached: true, stdio: 'ignore' });
      child.once('error', (error) => resolve({ opened: false, reason: `The terminal could not start: ${error.message}` }));
      child.once('spawn', () => {
        child.unref();
        resolve({ opened: true, reason: null });
      });
    });
  }
}
