/** OpenCode as the rest of the app sees it. */
import type { HarnessDescriptor } from '../harness';
import { openCodeStoreHomes, openCodeStoreProblem } from './doctor';
import { OPENCODE_KNOWN } from './known';
import { seatFromCliTarget } from './locate';
import { createOpenCodeReader } from './reader';

export const openCodeHarness: HarnessDescriptor = {
  id: 'opencode',
  displayName: 'OpenCode',
  createReader: (homes) => createOpenCodeReader({ dataDir: homes.opencodeDataDir, env: { OPENCODE_DB: homes.opencodeDb } }),
  known: OPENCODE_KNOWN,
  storeHomes: openCodeStoreHomes,
  storeProblem: openCodeStoreProblem,
  cliTarget: 'id',
  cliFlags: ['db'],
  seatFromCliTarget: (target, flags, env) => seatFromCliTarget(target, { db: flags.db }, env),
  readerForSeat: (seat) => createOpenCodeReader({ db: seat.home }),
  // Every session row records its directory; one that does not is not matched.
  startedIn: () => false,
};
