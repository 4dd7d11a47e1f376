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
 */
import type { Harness } from '../../shared/schemas';

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
export function harnessArgv(request: { harness: Harness; executable: string; cwd: string; prompt?: string; sessionId?: string }): string[] {
  const prompt = request.prompt !== undefined && request.prompt !== '' ? request.prompt : undefined;
  switch (request.harness) {
    case 'claude':
      if (!request.sessionId) throw new Error('A Claude Code launch needs the session id Pixelfleet chose.');
      return [request.executable, '--session-id', request.sessionId, ...(prompt !== undefined ? [prompt] : [])];
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
  return ['tmux', ...tmuxSocketArgs(env), 'attach', '-t', session].map(shellQuote).join(' ');
}
