/**
 * The timeline bar's geometry, pure: the retained span mapped onto the bar's width, the needs-you spans as merged
 * strips, the job counts as columns, the hour ticks and the clock labels. No DOM; the bar paints what this returns.
 */
import type { HistoryBucket, NeedsYouSpan } from '../../shared/history';

/** The retained span laid on a bar `width` pixels wide (`fromMs` < `toMs`, else the bar is a single moment). */
export interface TimelineScale {
  fromMs: number;
  toMs: number;
  width: number;
}

/** A strip on the bar: from `x`, `width` pixels wide. */
export interface Strip {
  x: number;
  width: number;
}

/** A column on the bar: its strip and its height in pixels. */
export interface Column extends Strip {
  height: number;
}

/** A tick on the bar: where, and its clock label. */
export interface Tick {
  x: number;
  label: string;
}

/** Narrowest strip drawn, in pixels: a wait of a second still shows. */
export const MIN_STRIP_PX = 1;
/** Fewest pixels between two ticks: the interval grows until its ticks are at least this far apart. */
export const MIN_TICK_GAP_PX = 72;
/** Tick intervals the bar picks from, in minutes (the first one that leaves MIN_TICK_GAP_PX between ticks). */
const TICK_MINUTES = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The scale of a span (ISO `from`/`to`) on a bar; a span not yet recorded (from null) is just `to`. */
export function scaleOf(span: { from: string | null; to: string }, width: number): TimelineScale {
  const toMs = Date.parse(span.to);
  const fromMs = span.from === null ? toMs : Date.parse(span.from);
  return { fromMs: Math.min(fromMs, toMs), toMs, width: Math.max(0, width) };
}

/** The x of an instant on the bar, clamped to its ends. */
export function xOf(scale: TimelineScale, ms: number): number {
  const range = scale.toMs - scale.fromMs;
  if (range <= 0) return scale.width;
  return clamp(((ms - scale.fromMs) / range) * scale.width, 0, scale.width);
}

/** The instant at an x on the bar (whole milliseconds), clamped to the span. */
export function msAt(scale: TimelineScale, x: number): number {
  const range = scale.toMs - scale.fromMs;
  if (range <= 0 || scale.width <= 0) return scale.toMs;
  return Math.round(scale.fromMs + (clamp(x, 0, scale.width) / scale.width) * range);
}

/**
 * The needs-you spans as strips, merged where they touch or overlap on the bar (many seats waiting at once make one
 * strip, not a pile), left to right; a span still open (`to` null) reaches the bar's end.
 */
export function needsYouStrips(scale: TimelineScale, spans: readonly Pick<NeedsYouSpan, 'from' | 'to'>[]): Strip[] {
  const pieces: [number, number][] = [];
  for (const span of spans) {
    const from = Date.parse(span.from);
    const to = span.to === null ? scale.toMs : Date.parse(span.to);
    if (Number.isNaN(from) || Number.isNaN(to) || to < scale.fromMs || from > scale.toMs) continue;
    const left = xOf(scale, from);
    pieces.push([left, Math.max(xOf(scale, to), left + MIN_STRIP_PX)]);
  }
  pieces.sort((a, b) => a[0] - b[0]);
  const strips: Strip[] = [];
  for (const [left, right] of pieces) {
    const last = strips[strips.length - 1];
    if (last && left <= last.x + last.width) last.width = Math.max(last.width, right - last.x);
    else strips.push({ x: left, width: right - left });
  }
  return strips;
}

/**
 * The job counts as columns, one per bucket with jobs (running at its end, or started in it), as tall as their share
 * of the busiest bucket of `height` pixels (at least one pixel: a lone job still shows).
 */
export function jobColumns(scale: TimelineScale, buckets: readonly HistoryBucket[], bucketMs: number, height: number): Column[] {
  const count = (bucket: HistoryBucket) => Math.max(bucket.running, bucket.started);
  const busiest = buckets.reduce((most, bucket) => Math.max(most, count(bucket)), 0);
  if (busiest === 0) return [];
  const columns: Column[] = [];
  for (const bucket of buckets) {
    const jobs = count(bucket);
    const at = Date.parse(bucket.at);
    if (jobs === 0 || Number.isNaN(at)) continue;
    const left = xOf(scale, at);
    const width = Math.max(MIN_STRIP_PX, xOf(scale, at + bucketMs) - left);
    columns.push({ x: left, width, height: Math.max(1, Math.round((jobs / busiest) * height)) });
  }
  return columns;
}

/** Ticks on whole local clock intervals (5 min … 1 day), as many as fit MIN_TICK_GAP_PX apart. */
export function ticks(scale: TimelineScale, timeZoneOffsetMin = new Date(scale.fromMs).getTimezoneOffset()): Tick[] {
  const range = scale.toMs - scale.fromMs;
  if (range <= 0 || scale.width <= 0) return [];
  const minutes = TICK_MINUTES.find((step) => (step * 60_000 * scale.width) / range >= MIN_TICK_GAP_PX) ?? TICK_MINUTES[TICK_MINUTES.length - 1];
  const step = minutes * 60_000;
  const offset = -timeZoneOffsetMin * 60_000;
  const result: Tick[] = [];
  for (let at = Math.ceil((scale.fromMs + offset) / step) * step - offset; at <= scale.toMs; at += step) {
    result.push({ x: xOf(scale, at), label: clockLabel(at) });
  }
  return result;
}

/** "14:32": the local clock time of an instant, hours and minutes. */
export function clockLabel(ms: number): string {
  const time = new Date(ms);
  return `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;
}

/** The banner's words while the world shows the past: "PAST · 14:32" (with the day when it is not today). */
export function pastBanner(ms: number, nowMs: number): string {
  const then = new Date(ms);
  const now = new Date(nowMs);
  const sameDay = then.getFullYear() === now.getFullYear() && then.getMonth() === now.getMonth() && then.getDate() === now.getDate();
  const day = sameDay ? '' : `${then.toLocaleDateString([], { weekday: 'short' })} `;
  return `PAST · ${day}${clockLabel(ms)}`;
}
