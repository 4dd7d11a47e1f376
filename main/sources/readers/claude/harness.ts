/** Claude Code as the rest of the app sees it. */
import { basename, dirname } from 'node:path';
import type { HarnessDescriptor } from '../harness';
import { escapeCwd, seatFromCliTarget } from './locate';
import { createClaudeReader } from './reader';

export const claudeHarness: HarnessDescriptor = {
  id: 'claude',
  displayName: 'Claude Code',
  createReader: (homes, context) => createClaudeReader({ home: homes.claude, usageLedger: context?.usageLedger }),
  cliTarget: 'path',
  cliFlags: [],
  seatFromCliTarget: (target) => seatFromCliTarget(target),
  readerForSeat: (seat) => createClaudeReader({ home: seat.home }),
  // A journal's folder is its working folder, escaped (lossy, so only compared, never decoded).
  startedIn: (candidate, folder) => !!candidate.seat.path && basename(dirname(candidate.seat.path)) === escapeCwd(folder),
};
