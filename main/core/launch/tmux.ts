/** The I/O edge of launching: finding executables on PATH and running tmux with an argument vector (never a shell). */
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Harness } from '../../../shared/schemas';
import { HARNESS_EXECUTABLES, LAUNCH_HARNESSES, PERSONA_LISTING_FORMAT, sessionOfPersona, tmuxSocketArgs } from './launchRules';

/** How to get tmux, for the one-line reason shown when it is missing. */
export const TMUX_INSTALL_HINT = 'install it with your package manager (apt-get install tmux, brew install tmux, dnf install tmux)';

/** The absolute path of `name` on `env.PATH`, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? '').split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return null;
}

/** One harness as the launcher sees it: its executable, or why it cannot be launched. */
export type HarnessAvailability = { harness: Harness; ok: true; executable: string } | { harness: Harness; ok: false; reason: string };

/** Which harnesses are on PATH. */
export function detectHarnesses(env: NodeJS.ProcessEnv): HarnessAvailability[] {
  return LAUNCH_HARNESSES.map((harness) => {
    const executable = findOnPath(HARNESS_EXECUTABLES[harness], env);
    return executable ? { harness, ok: true, executable } : { harness, ok: false, reason: `${HARNESS_EXECUTABLES[harness]} is not on PATH` };
  });
}

/** tmux's path, or the one-line reason launch is unavailable. */
export function detectTmux(env: NodeJS.ProcessEnv): { ok: true; executable: string } | { ok: false; reason: string } {
  const executable = findOnPath('tmux', env);
  return executable ? { ok: true, executable } : { ok: false, reason: `Launch needs tmux, which is not on PATH: ${TMUX_INSTALL_HINT}.` };
}

/** The outcome of one tmux run. */
export type TmuxResult = { ok: true; stdout: string } | { ok: false; reason: string };

/** Runs `tmux <args>` (args already include any `-L`). */
export function runTmux(executable: string, args: string[], env: NodeJS.ProcessEnv): Promise<TmuxResult> {
  return runProgram(executable, args, env, 10_000);
}

/** Runs a program from an argument vector (no shell) and collects its output. */
export function runProgram(executable: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<TmuxResult> {
  return new Promise((resolve) => {
    execFile(executable, args, { env, timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) resolve({ ok: false, reason: (stderr || error.message).trim().split('\n')[0] });
      else resolve({ ok: true, stdout });
    });
  });
}

/** True when the tmux session exists (exact name match). */
export async function hasSession(executable: string, session: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await runTmux(executable, [...tmuxSocketArgs(env), 'has-session', '-t', `=${session}`], env)).ok;
}

/** The running session launched for a persona (rule 6 of launchRules), or null. */
export async function sessionForPersona(executable: string, personaId: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const listed = await runTmux(executable, [...tmuxSocketArgs(env), 'list-sessions', '-F', PERSONA_LISTING_FORMAT], env);
  return listed.ok ? sessionOfPersona(listed.stdout, personaId) : null;
}
