/** Where each harness keeps its sessions, resolved from the environment the app hands in (readers never read it). */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The harness homes Pixelfleet discovers sessions in. */
export interface HarnessHomes {
  /** CLAUDE_CONFIG_DIR (journals in `<claude>/projects`). */
  claude: string;
  /** CODEX_HOME (rollouts in `<codex>/sessions`). */
  codex: string;
  /** The OpenCode database path when OPENCODE_DB is set, else its data folder. */
  opencodeDb: string | undefined;
  opencodeDataDir: string;
}

/** Harness homes from the environment, with each harness's own defaults. */
export function resolveHarnessHomes(env: NodeJS.ProcessEnv): HarnessHomes {
  const home = env.HOME || homedir();
  const claudeDir = env.CLAUDE_CONFIG_DIR?.split(',')[0]?.trim();
  return {
    claude: claudeDir || join(home, '.claude'),
    codex: env.CODEX_HOME || join(home, '.codex'),
    opencodeDb: env.OPENCODE_DB || undefined,
    opencodeDataDir: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode'),
  };
}
