/**
 * The context bar under each character: how full its context is, as a level and a whole percent. Pure rules, with
 * no Pixi and no art (the picture is `contextBarPicture.ts`), so tests and the page hook's readers share them.
 *
 * Levels: calm below 70 %, warning from 70 % (so 70–80 % is already warning: the issue ends calm at 70 and names
 * warning at 80, and with only one level between calm and alarm a 70–80 band must be one of them; one turn with a
 * large tool result can add ten points, so the owner is warned while there is still room to act), alarm from 95 %,
 * unknown (grey, hatched) when the seat has no usage, no context figure or no known window.
 */
import type { Usage } from '../../shared/usage';

/** What the bar says: calm, warning, alarm, or unknown (never a guessed fill). */
export type ContextLevel = 'calm' | 'warning' | 'alarm' | 'unknown';

/** Whole percent from which the bar warns (70–79 % included, see the file's note). */
export const WARNING_PERCENT = 70;
/** Whole percent from which the bar alarms. */
export const ALARM_PERCENT = 95;

/** The bar as a view shows it: its level and whole percent (null when unknown). Equal values draw the same. */
export interface ContextGauge {
  level: ContextLevel;
  /** Whole percent of the window in use, rounded down (over 100 when the harness reports more than the window). */
  percent: number | null;
}

/** The bar of a seat without a usable fill. */
export const UNKNOWN_GAUGE: ContextGauge = { level: 'unknown', percent: null };

/** Whole percent of a fill, rounded down (a hair of float error never lifts 0.7 below 70). */
export function fillPercent(fill: number): number {
  return Math.floor(fill * 100 + 1e-9);
}

/** The level of a whole percent. */
export function levelOf(percent: number | null): ContextLevel {
  if (percent === null || !Number.isFinite(percent) || percent < 0) return 'unknown';
  if (percent >= ALARM_PERCENT) return 'alarm';
  if (percent >= WARNING_PERCENT) return 'warning';
  return 'calm';
}

/** The bar of a seat's usage: unknown when usage is absent, its context null, or its fill null. */
export function contextGauge(usage: Usage | undefined): ContextGauge {
  const fill = usage?.context?.fill;
  if (fill === null || fill === undefined || !Number.isFinite(fill) || fill < 0) return UNKNOWN_GAUGE;
  const percent = fillPercent(fill);
  return { level: levelOf(percent), percent };
}

/** True when two gauges draw the same bar. */
export function sameGauge(first: ContextGauge, second: ContextGauge): boolean {
  return first.level === second.level && first.percent === second.percent;
}

/** Width of the bar in pixels at text scale 1: an ink frame around `BAR_CELLS` cells. */
export const BAR_WIDTH = 18;
/** Height of the bar: an ink frame around two rows, so the unknown hatch reads as diagonal. */
export const BAR_HEIGHT = 4;
/** Cells of fill inside the frame. */
export const BAR_CELLS = BAR_WIDTH - 2;

/** Filled cells for a whole percent: at least one from 1 %, all of them from 100 %. */
export function filledCells(percent: number | null): number {
  if (percent === null || percent <= 0) return 0;
  return Math.min(BAR_CELLS, Math.max(1, Math.round((percent / 100) * BAR_CELLS)));
}
