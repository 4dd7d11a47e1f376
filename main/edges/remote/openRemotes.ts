/** Opens the remotes an app home lists, publishing the merged world through the update sender. */
import type { UpdateSender } from '../transport/updates';
import { RemoteHub } from './RemoteHub';
import { readRemotes } from './remoteStore';

/** The hub for the home's remotes, or null when it lists none (the world is then the local one, unchanged). */
export async function openRemotes(options: { home: string; env: NodeJS.ProcessEnv; appVersion: string; updates: UpdateSender; log: (message: string) => void }): Promise<RemoteHub | null> {
  const read = await readRemotes(options.home);
  if (!read.ok) {
    options.log(`pixelfleet: remotes are not shown: ${read.reason}`);
    return null;
  }
  if (read.remotes.length === 0) return null;
  return new RemoteHub({
    remotes: read.remotes,
    env: options.env,
    appVersion: options.appVersion,
    publishFleet: (snapshot) => options.updates.fleet(snapshot),
    publishBoard: (board) => options.updates.jobs(board),
    log: options.log,
  });
}
