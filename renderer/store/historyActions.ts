/**
 * The history slice: the timeline (open or not, the retained span), the moment the world shows (`viewing`: null is
 * live) and its playback, and the away digest. The live fleet keeps following main underneath; the world draws the
 * viewed moment instead while there is one (see `shownFleet`). While the timeline is open the page holds the last
 * half hour or so of history (`history.window`, read with the span) and works out a moment inside it itself, at once;
 * other moments are asked of main one at a time, the latest wins (an answer for an older seek is dropped). Playback
 * steps on a timer only while it plays; nothing runs while the timeline is still.
 */
import type { Bridge } from '../bridge';
import { digestTotals } from '../../shared/history';
import { HistoryWindowFold } from '../../shared/historyWindow';
import type { FleetSnapshot } from '../../shared/schemas';
import { orderDigest } from '../history/digest';
import { changeSpeed, playbackAt, PLAYBACK_STEP_MS, startPlayback, type Playback } from '../history/playback';
import type { AppState, HistoryActions, HistoryState, Viewing } from './appState';

/** The away time before the digest shows while main has not said (settings.json `history.awayMinutes`). */
export const DEFAULT_AWAY_MS = 10 * 60_000;

/** How far back play starts when pressed while live: the last hour. */
export const PLAY_FROM_LIVE_MS = 3_600_000;

/** The initial history slice. */
export const INITIAL_HISTORY: HistoryState = { timelineOpen: false, span: null, spanError: null, viewing: null, playing: null, away: null, held: null };

/** The fleet the world draws: the viewed moment's, else the live one. */
export function shownFleet(state: Pick<AppState, 'fleet' | 'history'>): FleetSnapshot | null {
  return state.history.viewing?.moment?.snapshot ?? state.fleet;
}

/** The clock of the world shown: the viewed moment's time (waits are "for 3 min" as of then), else now. */
export function shownNowMs(state: Pick<AppState, 'history'>, nowMs = Date.now()): number {
  const viewing = state.history.viewing;
  if (!viewing) return nowMs;
  const at = viewing.moment ? Date.parse(viewing.moment.at) : Number.NaN;
  return Number.isNaN(at) ? viewing.atMs : at;
}

/** True while the world shows the past. */
export function inPast(state: Pick<AppState, 'history'>): boolean {
  return state.history.viewing !== null;
}

interface HistoryDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  describe: (error: unknown) => string;
  now?: () => number;
}

/** Creates the history actions over the store's `get` and `set`. */
export function createHistoryActions({ bridge, get, set, describe, now = Date.now }: HistoryDependencies): HistoryActions & { dispose(): void } {
  const patch = (part: Partial<HistoryState>) => set((state) => ({ history: { ...state.history, ...part } }));
  const viewing = (part: Partial<Viewing>) => set((state) => (state.history.viewing ? { history: { ...state.history, viewing: { ...state.history.viewing, ...part } } } : {}));
  let inFlight = false;
  /** The moment to read once the one on its way is answered (null: none). */
  let wanted: number | null = null;
  let playback: Playback | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let awaySince: number | null = null;
  /** The recent history held while the timeline is open (null: closed, not read yet, or main has none). */
  let local: HistoryWindowFold | null = null;
  /** Counts the moments shown: an answer from main is shown only while its seek is still the latest. */
  let shown = 0;

  const read = (atMs: number) => {
    inFlight = true;
    const mine = shown;
    bridge.invoke('history.at', { at: new Date(atMs).toISOString() }).then(
      (moment) => {
        // A return to live while it was on its way, or a later seek answered here: the answer is not shown.
        if (get().history.viewing && mine === shown) viewing({ moment, error: null });
      },
      (error: unknown) => viewing({ error: `Could not read that moment: ${describe(error)}` }),
    ).finally(() => {
      inFlight = false;
      const next = wanted;
      wanted = null;
      if (next !== null && get().history.viewing) read(next);
    });
  };
  const show = (atMs: number) => {
    shown += 1;
    if (local?.covers(atMs)) {
      wanted = null;
      patch({ viewing: { atMs, moment: local.momentAt(atMs), error: null } });
      return;
    }
    const current = get().history.viewing;
    patch({ viewing: { atMs, moment: current?.moment ?? null, error: current?.error ?? null } });
    if (inFlight) wanted = atMs;
    else read(atMs);
  };
  const readWindow = async () => {
    try {
      const window = await bridge.invoke('history.window', {});
      if (!get().history.timelineOpen) return;
      local = window ? new HistoryWindowFold(window) : null;
      patch({ held: local && { fromMs: local.fromMs, untilMs: local.untilMs } });
    } catch (error) {
      // Not fatal: every moment is then asked of main, as before the window.
      console.warn(`pixelfleet: recent history not held: ${describe(error)}`);
      local = null;
      patch({ held: null });
    }
  };
  const stopTimer = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playback = null;
  };
  const endMs = () => {
    const span = get().history.span;
    return span ? Math.max(Date.parse(span.to), now()) : now();
  };
  const awayMs = () => get().history.span?.awayMs ?? DEFAULT_AWAY_MS;

  const actions: HistoryActions = {
    toggleTimeline() {
      if (get().history.timelineOpen) {
        actions.goLive();
        local = null;
        patch({ timelineOpen: false, held: null });
      } else {
        patch({ timelineOpen: true });
        void actions.refreshSpan();
      }
    },
    async refreshSpan() {
      // The recent history is read beside the span while the bar is open (a press before it arrives asks main).
      if (get().history.timelineOpen) void readWindow();
      try {
        patch({ span: await bridge.invoke('history.span', {}), spanError: null });
      } catch (error) {
        patch({ spanError: `Could not read the history: ${describe(error)}` });
      }
    },
    seek(atMs) {
      stopTimer();
      if (get().history.playing !== null) patch({ playing: null });
      if (atMs >= endMs()) return actions.goLive();
      show(atMs);
    },
    play(speed) {
      const span = get().history.span;
      const current = get().history.viewing;
      const wall = now();
      const end = endMs();
      if (playback) playback = changeSpeed(playback, speed, wall, end);
      else {
        // From the moment shown; from live, the last PLAY_FROM_LIVE_MS (or all that was kept, when less).
        const kept = span?.from ? Date.parse(span.from) : null;
        const from = current?.atMs ?? (kept === null ? null : Math.max(kept, end - PLAY_FROM_LIVE_MS));
        if (from === null || from >= end) return;
        playback = startPlayback(from, speed, wall);
        show(from);
      }
      patch({ playing: speed });
      timer ??= setInterval(() => {
        if (!playback) return;
        const step = playbackAt(playback, now(), endMs());
        if (step.ended) actions.goLive();
        else show(step.atMs);
      }, PLAYBACK_STEP_MS);
    },
    pause() {
      stopTimer();
      patch({ playing: null });
    },
    goLive() {
      stopTimer();
      wanted = null;
      if (get().history.viewing !== null || get().history.playing !== null) patch({ viewing: null, playing: null });
    },
    windowAway(nowMs = now()) {
      awaySince ??= nowMs;
    },
    async windowBack(nowMs = now()) {
      const since = awaySince;
      awaySince = null;
      if (since === null) return;
      if (!get().history.span) await actions.refreshSpan();
      if (nowMs - since < awayMs()) return;
      try {
        const digest = await bridge.invoke('history.digest', { since: new Date(since).toISOString() });
        if (digest.entries.length === 0) return;
        patch({ away: { sinceMs: since, untilMs: Date.parse(digest.until), entries: orderDigest(digest.entries), more: digest.more, totals: digest.totals ?? digestTotals(digest.entries) } });
      } catch (error) {
        patch({ spanError: `Could not read what happened while you were away: ${describe(error)}` });
      }
    },
    simulateAway(minutes) {
      const back = now();
      awaySince = back - minutes * 60_000;
      return actions.windowBack(back);
    },
    dismissAway() {
      patch({ away: null });
    },
  };
  return { ...actions, dispose: stopTimer };
}
