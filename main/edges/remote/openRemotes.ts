/** Opens the remotes an app home lists, publishing the merged world through the update sender. */
import type { EventName } from '../../../shared/contract';
import type { UpdateSender } from '../transport/updates';
import { RemoteHub } from './RemoteHub';
import { readRemotes } from './remoteStore';

/**
 * The hub for the home's remotes, even when it lists none: a running host follows `remotes.json` (issue 42), so a
 * remote added later joins without a restart. A file that cannot be used is shown in the world; no remote is joined.
 */
export async function openRemotes(options: { home: string; env: NodeJS.ProcessEnv; appVersion: string; updates: UpdateSender; log: (message: string) => void; relay?: (event: EventName, payload: unknown) => void }): Promise<RemoteHub | null> {
  const read = await readRemotes(options.home);
  const hub = new RemoteHub({
    remotes: read.ok ? read.remotes : [],
    home: options.home,
    env: options.env,
    appVersion: options.appVersion,
    publishFleet: (snapshot) => options.updates.fleet(snapshot),
    publishBoard: (board) => options.updates.jobs(board),
    log: options.log,
    relay: options.relay,
  });
  if (!read.ok) hub.setProblem(read.reason);
  return hub;
}
