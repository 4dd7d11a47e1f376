/** Codex CLI as the rest of the app sees it. */
import type { HarnessDescriptor } from '../harness';
import { createCodexReader, seatFromCliTarget } from './reader';

export const codexHarness: HarnessDescriptor = {
  id: 'codex',
  displayName: 'Codex',
  createReader: (homes) => createCodexReader({ home: homes.codex }),
  cliTarget: 'path',
  cliFlags: ['codex-home'],
  seatFromCliTarget: (target, flags, env) => seatFromCliTarget(target, { codexHome: flags['codex-home'] ?? env.CODEX_HOME }),
  readerForSeat: (seat) => createCodexReader({ home: seat.home }),
  // Every rollout records its working folder in its header; one that does not is not matched.
  startedIn: () => false,
};
