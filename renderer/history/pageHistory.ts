/**
 * The page's side of history that is neither store nor panel: the window's focus feeding the away digest, and what
 * the page hook reports of the timeline and the digest (for tests and tools).
 */
import type { DigestKind, DigestTotals } from '../../shared/history';
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { inPast } from '../store/historyActions';
import { digestLine } from './digest';

/** The page hook's view of history. */
export interface HistoryHook {
  /** True while the timeline bar is shown. */
  timeline: boolean;
  mode: 'live' | 'past';
  /** The moment the world shows (ISO, as main answered it); null while live or before the first answer. */
  at: string | null;
  /** Where the handle is (ISO); null while live. */
  handle: string | null;
  playing: 60 | 600 | null;
  /** The retained span (ISO), null before it is read. */
  span: { from: string | null; to: string } | null;
  /** The recent history the page holds and answers presses in itself (ISO); null while the bar is closed or before it is read. */
  held: { from: string; until: string } | null;
  /** The away panel's entries in order, or null when it is not shown. */
  away: { kind: DigestKind; personaId: string; text: string }[] | null;
  /** The away digest's window, totals over every entry and the count past its bound; null when it is not shown. */
  awayDigest: { since: string; until: string; totals: DigestTotals; more: number } | null;
}

/** What the page hook reports of history. */
export function historyHook(state: Pick<AppState, 'history'>): HistoryHook {
  const { timelineOpen, viewing, playing, span, away, held } = state.history;
  return {
    timeline: timelineOpen,
    mode: inPast(state) ? 'past' : 'live',
    at: viewing?.moment?.at ?? null,
    handle: viewing ? new Date(viewing.atMs).toISOString() : null,
    playing,
    span: span && { from: span.from, to: span.to },
    held: held && { from: new Date(held.fromMs).toISOString(), until: new Date(held.untilMs).toISOString() },
    away: away && away.entries.map((entry) => {
      const line = digestLine(entry);
      return { kind: line.kind, personaId: line.personaId, text: line.text };
    }),
    awayDigest: away && { since: new Date(away.sinceMs).toISOString(), until: new Date(away.untilMs).toISOString(), totals: away.totals, more: away.more },
  };
}

/** Follows the window's focus: away on blur (or hidden), back on focus (or shown again). */
export function attachAway(store: AppStore): () => void {
  const away = () => store.getState().actions.windowAway();
  const back = () => void store.getState().actions.windowBack();
  const visibility = () => (document.hidden ? away() : back());
  addEventListener('blur', away);
  addEventListener('focus', back);
  document.addEventListener('visibilitychange', visibility);
  return () => {
    removeEventListener('blur', away);
    removeEventListener('focus', back);
    document.removeEventListener('visibilitychange', visibility);
  };
}
