/** Opens the remotes an app home lists, publishing the merged world through the update sender. */
import type { Notice } from '../../../shared/schemas';
import type { UpdateSender } from '../transport/updates';
import { RemoteHub } from './RemoteHub';
import { readRemotes } from './remoteStore';

/** The hub for the home's remotes, or null when it lists none (the world is then the local one, unchanged). */
export async function openRemotes(options: { home: string; env: NodeJS.ProcessEnv; appVersion: string; updates: UpdateSender; log: (message: string) => void; notices?: Notice[] }): Promise<RemoteHub | null> {
  const read = await readRemotes(options.home);
  if (!read.ok) {
    // Issue 36: a broken remotes.json is said to the owner on the page (a notice), not only in a log line.
    options.log(`pixelfleet: remotes are not shown: ${read.reason}`);
    options.notices?.push({ id: 'remotes-file', level: 'error', message: `Remotes are not shown: ${read.reason}.` });
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
