/** Where Pixelfleet and the harnesses keep their data, resolved from the environment once per process. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app home and the files in it. */
export interface AppPaths {
  home: string;
  personas: string;
  settings: string;
  /** The job alias store (beside personas.json). */
  jobAliases: string;
  /** The history store (issue 27). */
  history: string;
}

/** The app home: PIXELFLEET_HOME, else the platform's config folder (XDG on Linux). The Electron userData is set to it. */
export function resolveAppHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PIXELFLEET_HOME) return env.PIXELFLEET_HOME;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Pixelfleet');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Pixelfleet');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'pixelfleet');
}

/** The files of an app home. */
export function appPaths(home: string): AppPaths {
  return {
    home,
    personas: join(home, 'personas.json'),
    settings: join(home, 'settings.json'),
    jobAliases: join(home, 'job-aliases.json'),
    history: join(home, 'history.sqlite'),
  };
}

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
export function resolveHarnessHomes(env: NodeJS.ProcessEnv = process.env): HarnessHomes {
  const home = env.HOME || homedir();
  const claudeDir = env.CLAUDE_CONFIG_DIR?.split(',')[0]?.trim();
  return {
    claude: claudeDir || join(home, '.claude'),
    codex: env.CODEX_HOME || join(home, '.codex'),
    opencodeDb: env.OPENCODE_DB || undefined,
    opencodeDataDir: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode'),
  };
}
