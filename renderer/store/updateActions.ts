/**
 * Following the fleet and the jobs board: whole versions (a read, `fleet.changed`, `jobs.changed`) replace what
 * the store holds; changes (`fleet.patched`, `jobs.patched`) apply onto the version they name, keeping every
 * unchanged seat, persona and job object so the world and panels redo only what changed. A change that does not
 * apply (a missed event, a restarted host) is healed by one read of the whole thing.
 */
import type { Bridge } from '../bridge';
import type { JobBoard } from '../../shared/jobs';
import type { FleetSnapshot } from '../../shared/schemas';
import { applyFleetPatch, applyJobsPatch } from '../../shared/updates';
import type { AppState, UpdateActions } from './appState';
import { withPinned } from './replayActions';

interface UpdateDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  /** Called when a read of the fleet fails (with the failure) or succeeds (with null). */
  onFleetRead: (error: unknown) => void;
}

/** A whole read that runs once at a time: asked again while one is on its way, it answers that one (unless forced). */
function oneAtATime(read: (force: boolean) => Promise<void>): { run(force: boolean): Promise<void>; readonly pending: boolean } {
  let inFlight: Promise<void> | null = null;
  return {
    run(force) {
      if (inFlight && !force) return inFlight;
      const settled: Promise<void> = read(force).finally(() => {
        if (inFlight === settled) inFlight = null;
      });
      inFlight = settled;
      return settled;
    },
    get pending() {
      return inFlight !== null;
    },
  };
}

/** Creates the update actions over the store's `get` and `set`. */
export function createUpdateActions({ bridge, get, set, onFleetRead }: UpdateDependencies): UpdateActions {
  const acceptSnapshot = (snapshot: FleetSnapshot, force: boolean) => {
    const current = get().fleet;
    // The cursor only grows; an older snapshot arriving late must not undo a newer one.
    if (!force && current && snapshot.cursor < current.cursor) return;
    set({ fleet: snapshot, replay: withPinned(get().replay, snapshot) });
  };
  /** Shows a board, with main's clock offset from the instant it was computed. */
  const showBoard = (board: JobBoard) => {
    const offset = Date.parse(board.at) - Date.now();
    set({ jobs: board, jobsClockOffsetMs: Number.isNaN(offset) ? 0 : offset });
  };
  const acceptBoard = (board: JobBoard, force: boolean) => {
    const current = get().jobs;
    if (!force && current) {
      if (current.revision !== undefined && board.revision !== undefined) {
        if (board.revision < current.revision) return;
      } else if (current.cursor !== undefined && board.cursor !== undefined && board.cursor < current.cursor) return;
    }
    showBoard(board);
  };
  const fleetRead = oneAtATime((force) => {
    set((state) => ({ counters: { ...state.counters, fleetReads: state.counters.fleetReads + 1 } }));
    return bridge.invoke('fleet.read', {}).then(
      (snapshot) => {
        acceptSnapshot(snapshot, force);
        onFleetRead(null);
      },
      (error: unknown) => onFleetRead(error),
    );
  });
  // The board's aliases show in the trays too, so it is read at start and then followed; a failed read leaves
  // the trays without aliases until the next board.
  const jobsRead = oneAtATime((force) => bridge.invoke('jobs.list', { all: true }).then((board) => acceptBoard(board, force), () => {}));
  return {
    receiveSnapshot: (snapshot) => acceptSnapshot(snapshot, false),
    receiveFleetPatch(patch) {
      const current = get().fleet;
      if (current && patch.cursor <= current.cursor) return;
      // While a whole read is on its way, changes wait for it: they may name a version the store does not hold yet.
      if (fleetRead.pending) return;
      const next = current ? applyFleetPatch(current, patch) : null;
      if (next) set((state) => ({ fleet: next, replay: withPinned(state.replay, next), counters: { ...state.counters, fleetPatches: state.counters.fleetPatches + 1 } }));
      else void fleetRead.run(false);
    },
    receiveJobs: (board) => acceptBoard(board, false),
    receiveJobsPatch(patch) {
      const current = get().jobs;
      if (current?.revision !== undefined && patch.revision <= current.revision) return;
      if (jobsRead.pending) return;
      const next = current ? applyJobsPatch(current, patch) : null;
      if (next) showBoard(next);
      else void jobsRead.run(false);
    },
    async resync(options = {}) {
      const force = options.restarted === true;
      await Promise.all([fleetRead.run(force), jobsRead.run(force)]);
    },
  };
}
