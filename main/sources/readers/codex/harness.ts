/** Codex CLI as the rest of the app sees it. */
import { join } from 'node:path';
import { storeHome, type HarnessDescriptor } from '../harness';
import { CODEX_KNOWN } from './known';
import { CODEX_HEADER_INDEX_FILE } from './headerIndexFile';
import { createCodexReader, seatFromCliTarget } from './reader';

export const codexHarness: HarnessDescriptor = {
  id: 'codex',
  displayName: 'Codex',
  // Lobby discovery keeps its header index in the app home when there is one (rule 13).
  createReader: (homes, context) =>
    createCodexReader({ home: homes.codex, headerIndex: context ? { file: join(context.appHome, CODEX_HEADER_INDEX_FILE), log: context.log } : undefined }),
  known: CODEX_KNOWN,
  storeHomes: async (homes) => [await storeHome(join(homes.codex, 'sessions'))],
  cliTarget: 'path',
  cliFlags: ['codex-home'],
  seatFromCliTarget: (target, flags, env) => seatFromCliTarget(target, { codexHome: flags['codex-home'] ?? env.CODEX_HOME }),
  readerForSeat: (seat) => createCodexReader({ home: seat.home }),
  // Every rollout records its working folder in its header; one that does not is not matched.
  startedIn: () => false,
};
