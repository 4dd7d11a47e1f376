/**
 * What this machine offers a host that joins it (issue 42's `remote test`): whether each harness's home is there and
 * whether tmux runs. Answered by `app.info`, so a host asks it over the same stream it uses for everything else.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { HarnessHomes } from '../../sources/readers/homes';

/** Each harness's home found (true), or not (false); and tmux answering `tmux -V`. */
export interface MachineProbe {
  harnesses: { claude: boolean; codex: boolean; opencode: boolean };
  tmux: boolean;
}

async function exists(path: string | undefined): Promise<boolean> {
  if (!path) return false;
  return stat(path).then(
    () => true,
    () => false,
  );
}

function tmuxRuns(env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('tmux', ['-V'], { env, timeout: 5000 }, (error) => resolve(!error));
  });
}

/** Looks at this machine's harness homes and tmux, now. */
export async function probeMachine(homes: HarnessHomes, env: NodeJS.ProcessEnv): Promise<MachineProbe> {
  const [claude, codex, opencodeDb, opencodeDir, tmux] = await Promise.all([
    exists(homes.claude),
    exists(homes.codex),
    exists(homes.opencodeDb),
    exists(homes.opencodeDataDir),
    tmuxRuns(env),
  ]);
  return { harnesses: { claude, codex, opencode: opencodeDb || opencodeDir }, tmux };
}
