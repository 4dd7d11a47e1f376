/**
 * Pure rules of "hire and launch": tmux session names, the argument vectors that start each harness inside tmux, and
 * the attach command as the owner types it. Every command is an argument vector; nothing is joined into a shell string
 * except the attach line shown to the owner, which is quoted for display.
 *
 * 1. The tmux session of a persona is `pf-<slug>`: the name lower-cased, every run of characters outside [a-z0-9]
 *    one `-`, trimmed, at most 40 characters; an empty slug falls back to the persona id.
 * 2. Claude Code starts as `claude --session-id <uuid> [prompt]`, so its seat is known before it writes a line.
 * 3. Codex starts as `codex --cd <cwd> [prompt]`, OpenCode as `opencode <cwd> [--prompt <prompt>]`: at least two
 *    arguments, so tmux executes the vector directly and never hands a lone string to a shell.
 * 4. Stopping sends the harness's own exit command (`/exit`, `/quit`), then the tmux session is killed after a grace.
 * 5. tmux runs on the server named by `PIXELFLEET_TMUX_SOCKET` (`tmux -L <name>`) when it is set, else the default.
 * 6. A launched session carries the persona's id in the tmux user option `@pixelfleet_persona`, so attach and stop find
 *    it by id after a rename; a session without the option is found by the name rule 1 gives. It also carries its
 *    harness (`@pixelfleet_harness`), so stop sends the right exit to a persona that was never seated.
 * 7. Claude Code with an exported agent for the role: `--agent <name>` from 2.0.59 (the version that added it); before
 *    that `--append-system-prompt <charter>` from 1.0.51 (the first to take it in interactive mode); older or
 *    unreadable versions start plain, and the owner is told.
 * 8. The configured terminal opens as its own argument vector followed by the attach vector.
 */
import type { Harness } from '../../../shared/schemas';

/** Harnesses that can be launched, in menu order. */
export const LAUNCH_HARNESSES: readonly Harness[] = ['claude', 'codex', 'opencode'];

/** The executable name of each harness on PATH. */
export const HARNESS_EXECUTABLES: Record<Harness, string> = { claude: 'claude', codex: 'codex', opencode: 'opencode' };

/** The line each harness's TUI takes to exit (rule 4). */
export const HARNESS_EXIT: Record<Harness, string> = { claude: '/exit', codex: '/quit', opencode: '/exit' };

/** The tmux session name of a persona (rule 1). */
export function tmuxSessionName(persona: { id: string; name: string }): string {
  const slug = persona.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return `pf-${slug || persona.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/** The argument vector that starts a harness (rules 2 and 3); `executable` is its resolved path. */
export function harnessArgv(request: { harness: Harness; executable: string; cwd: string; prompt?: string; sessionId?: string; roleArgs?: string[] }): string[] {
  const prompt = request.prompt !== undefined && request.prompt !== '' ? request.prompt : undefined;
  switch (request.harness) {
    case 'claude':
      if (!request.sessionId) throw new Error('A Claude Code launch needs the session id Pixelfleet chose.');
      return [request.executable, '--session-id', request.sessionId, ...(request.roleArgs ?? []), ...(prompt !== undefined ? [prompt] : [])];
    case 'codex':
      return [request.executable, '--cd', request.cwd, ...(prompt !== undefined ? [prompt] : [])];
    case 'opencode':
      return [request.executable, request.cwd, ...(prompt !== undefined ? ['--prompt', prompt] : [])];
  }
}

/** `-L <socket>` when a private tmux server is named (rule 5). */
export function tmuxSocketArgs(env: NodeJS.ProcessEnv): string[] {
  const socket = env.PIXELFLEET_TMUX_SOCKET?.trim();
  return socket ? ['-L', socket] : [];
}

/** Environment variables handed to the new tmux session, so the harness sees the same PATH and homes as Pixelfleet. */
export const PASSED_ENV = ['PATH', 'HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'OPENCODE_DB', 'XDG_DATA_HOME'] as const;

/** The tmux argument vector (after `tmux`) that starts `argv` detached in `cwd` (rule 3, rule 5). */
export function newSessionArgv(request: { session: string; cwd: string; argv: string[]; env: NodeJS.ProcessEnv }): string[] {
  const passed = PASSED_ENV.flatMap((name) => (request.env[name] !== undefined ? ['-e', `${name}=${request.env[name]}`] : []));
  return [...tmuxSocketArgs(request.env), 'new-session', '-d', '-s', request.session, '-c', request.cwd, ...passed, '--', ...request.argv];
}

/** One word quoted for a POSIX shell, only when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The attach command as the owner types it: `tmux [-L socket] attach -t pf-<slug>`, quoted for display. */
export function attachCommand(session: string, env: NodeJS.ProcessEnv): string {
  return ['tmux', ...attachArgv(session, env)].map(shellQuote).join(' ');
}

/** The tmux user option that names a launched session's persona (rule 6). */
export const PERSONA_OPTION = '@pixelfleet_persona';
/** The tmux user option that names a launched session's harness, so stop sends the right exit to an unseated one. */
export const HARNESS_OPTION = '@pixelfleet_harness';

/**
 * The format of the listing `sessionOfPersona` reads: the persona id first, then one space and the session name (tmux
 * prints control characters such as a tab as `_`, and a persona id has no spaces).
 */
export const PERSONA_LISTING_FORMAT = `#{${PERSONA_OPTION}} #{session_name}`;

/** The session carrying `personaId` in a `list-sessions -F PERSONA_LISTING_FORMAT` listing (rule 6). */
export function sessionOfPersona(listing: string, personaId: string): string | null {
  const prefix = `${personaId} `;
  for (const row of listing.split('\n')) if (personaId !== '' && row.startsWith(prefix) && row.length > prefix.length) return row.slice(prefix.length);
  return null;
}

/** A `major.minor.patch` version. */
export type Version = [number, number, number];

/** The first `x.y.z` of a `--version` output (`2.1.114 (Claude Code)`), or null. */
export function parseVersion(output: string): Version | null {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(output);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function atLeast(version: Version, floor: Version): boolean {
  for (let index = 0; index < 3; index += 1) if (version[index] !== floor[index]) return version[index] > floor[index];
  return true;
}

/** The first Claude Code version with `--agent <name>` (rule 7). */
export const CLAUDE_AGENT_FLAG_SINCE: Version = [2, 0, 59];
/** The first Claude Code version that takes `--append-system-prompt` in interactive mode (rule 7). */
export const CLAUDE_APPEND_FLAG_SINCE: Version = [1, 0, 51];

/** How a Claude Code launch carries the role's exported agent: its flags, and a sentence for the owner (rule 7). */
export function claudeRoleStart(
  version: Version | null,
  agent: { name: string; charter: string },
): { args: string[]; mode: 'agent' | 'append' | 'plain'; note: string } {
  const shown = version ? version.join('.') : 'of unknown version';
  if (version && atLeast(version, CLAUDE_AGENT_FLAG_SINCE)) {
    return { args: ['--agent', agent.name], mode: 'agent', note: `Started as the exported agent ${agent.name} (--agent).` };
  }
  if (version && atLeast(version, CLAUDE_APPEND_FLAG_SINCE) && agent.charter.trim() !== '') {
    return {
      args: ['--append-system-prompt', agent.charter.trim()],
      mode: 'append',
      note: `Claude Code ${shown} has no --agent; the charter of ${agent.name} was appended to the system prompt.`,
    };
  }
  return { args: [], mode: 'plain', note: `Claude Code ${shown} offers neither --agent nor --append-system-prompt; started plain, without the agent ${agent.name}.` };
}

/** The charter of an exported Markdown agent: the body after its front matter, trimmed. */
export function agentCharter(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return (match ? text.slice(match[0].length) : text).trim();
}

/** The tmux argument vector (after `tmux`) of the attach command (rule 5). */
export function attachArgv(session: string, env: NodeJS.ProcessEnv): string[] {
  return [...tmuxSocketArgs(env), 'attach', '-t', session];
}

/** The vector that opens the configured terminal attached to a session (rule 8); `tmux` is tmux's resolved path. */
export function terminalArgv(command: readonly string[], tmux: string, session: string, env: NodeJS.ProcessEnv): string[] {
  return [...command, tmux, ...attachArgv(session, env)];
}
