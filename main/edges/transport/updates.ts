/**
 * Sends the fleet and the jobs board to renderers as changes: the first snapshot (and board) whole, then only what
 * changed since the one before (shared/updates.ts). At 200 agents a whole snapshot is about 235 KB and the board
 * about 95 KB, several times a second; their changes are usually a few seats and jobs.
 */
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot } from '../../../shared/schemas';
import { diffFleet, diffJobs } from '../../../shared/updates';
import type { EventStream } from './events';

/** Where main hands each new snapshot and board; each goes out whole or as its changes. */
export interface UpdateSender {
  fleet(snapshot: FleetSnapshot): void;
  jobs(board: JobBoard): void;
}

/** An update sender over `emit`: whole first, changes after, whole again whenever changes cannot say it. */
export function createUpdateSender(emit: EventStream['emit']): UpdateSender {
  let lastSnapshot: FleetSnapshot | null = null;
  let lastBoard: JobBoard | null = null;
  return {
    fleet(snapshot) {
      const previous = lastSnapshot;
      lastSnapshot = snapshot;
      const patch = previous && previous.cursor < snapshot.cursor ? diffFleet(previous, snapshot) : null;
      if (patch) emit('fleet.patched', { patch });
      else emit('fleet.changed', { snapshot });
    },
    jobs(board) {
      const previous = lastBoard;
      lastBoard = board;
      const patch = previous && previous.revision !== undefined && board.revision !== undefined && previous.revision < board.revision ? diffJobs(previous, board) : null;
      if (patch) emit('jobs.patched', { patch });
      else emit('jobs.changed', { board });
    },
  };
}
