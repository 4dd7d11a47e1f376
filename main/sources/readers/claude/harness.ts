/** Claude Code as the rest of the app sees it. */
import { basename, dirname, join } from 'node:path';
import { storeHome, type HarnessDescriptor } from '../harness';
import { CLAUDE_KNOWN } from './known';
import { escapeCwd, seatFromCliTarget } from './locate';
import { UsageLedger } from './ledger';
import { createClaudeReader } from './reader';

export const claudeHarness: HarnessDescriptor = {
  id: 'claude',
  displayName: 'Claude Code',
  createReader: (homes, context) => {
    // The whole-session usage pass persists its checkpoint in the app home when the app will end it; else in memory.
    const usageLedger = context?.keep ? new UsageLedger({ appHome: context.appHome, log: context.log }) : undefined;
    if (usageLedger) context?.keep?.(usageLedger);
    return createClaudeReader({ home: homes.claude, usageLedger });
  },
  known: CLAUDE_KNOWN,
  storeHomes: async (homes) => [await storeHome(join(homes.claude, 'projects'))],
  cliTarget: 'path',
  cliFlags: [],
  seatFromCliTarget: (target) => seatFromCliTarget(target),
  readerForSeat: (seat) => createClaudeReader({ home: seat.home }),
  // A journal's folder is its working folder, escaped (lossy, so only compared, never decoded).
  startedIn: (candidate, folder) => !!candidate.seat.path && basename(dirname(candidate.seat.path)) === escapeCwd(folder),
};
