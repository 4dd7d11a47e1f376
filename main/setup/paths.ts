/** Where Pixelfleet keeps its own data (the app home and its files), resolved from the environment once per process. */
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
