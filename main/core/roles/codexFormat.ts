/**
 * Which agent-role format the installed Codex reads. Current Codex sources discover standalone role files
 * (`agents/<name>.toml` under `$CODEX_HOME` or a project's `.codex/`); older builds declared roles only as
 * `[agents.<name>]` tables in `config.toml`, which Pixelfleet does not edit. When the installed version cannot be
 * read, the format cannot be determined and nothing is written. Sources: FORMATS.md.
 */
import { execFile } from 'node:child_process';

/** The first Codex version reported to discover standalone agent-role files (single source; see FORMATS.md). */
export const CODEX_ROLE_FILES_SINCE: readonly [number, number, number] = [0, 117, 0];

/** The format decision: files may be written, or the reason they may not. */
export type CodexFormat = { ok: true; version: string } | { ok: false; reason: string };

function compare(first: readonly number[], second: readonly number[]): number {
  for (let index = 0; index < 3; index++) if (first[index] !== second[index]) return first[index] - second[index];
  return 0;
}

/** Decides from the output of `codex --version` (null when the command could not run). */
export function codexFormatFromVersion(output: string | null): CodexFormat {
  if (output === null) {
    return { ok: false, reason: 'Codex is not installed here (no `codex` on PATH), so the agent-role format it reads cannot be determined; nothing was written.' };
  }
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(output);
  if (!match) {
    return { ok: false, reason: `\`codex --version\` printed no version (${JSON.stringify(output.trim().slice(0, 80))}), so the agent-role format cannot be determined; nothing was written.` };
  }
  const version = [Number(match[1]), Number(match[2]), Number(match[3])];
  const since = CODEX_ROLE_FILES_SINCE.join('.');
  if (compare(version, CODEX_ROLE_FILES_SINCE) < 0) {
    return { ok: false, reason: `Codex ${match[0]} predates agent-role files (agents/<name>.toml, from ${since}); its roles live in [agents.<name>] tables of config.toml, which Pixelfleet does not edit. Nothing was written.` };
  }
  return { ok: true, version: match[0] };
}

/** Runs `codex --version` (argument vector, no shell, 5 s) and decides. */
export function detectCodexFormat(env: NodeJS.ProcessEnv): Promise<CodexFormat> {
  return new Promise((resolve) => {
    execFile('codex', ['--version'], { env, timeout: 5_000, windowsHide: true }, (error, stdout) => {
      resolve(codexFormatFromVersion(error ? null : String(stdout)));
    });
  });
}
