/**
 * Plan windows and usage limits as the harnesses record them (issue 41). Pure.
 *
 * L1. Codex writes its rate limits on `token_count` events (`rate_limits`), also when `info` is null. Three eras:
 *     flat (`primary_used_percent`, `primary_window_minutes`, the same for `secondary`; no reset time), nested with
 *     `resets_in_seconds` (counted from the record's own time), nested with `resets_at` (unix seconds).
 * L2. A window's figure is kept only when sound: `used_percent` a number in [0, 100], `window_minutes` absent or a
 *     whole number of minutes up to a year, a reset after the record (a minute of skew allowed) and no further ahead
 *     than the window (or 31 days when the window is not named) plus an hour. Anything else is skipped and counted.
 * L3. The newest record per window wins; a record older than the one kept (clock skew, lines out of order) is skipped
 *     and counted.
 * L4. Claude Code's own API-error message (a `<synthetic>` or `isApiErrorMessage` assistant line) that a usage limit
 *     was reached marks the seat limited: `Claude AI usage limit reached|<unix seconds>` (1.x), or the 2.x wording
 *     "… hit your limit · resets 3pm (Europe/Berlin)", read as the next such wall-clock time after the record.
 *     A reset time that cannot be read or is absurd leaves `resetsAt` null (counted as skipped); a later real
 *     assistant message ends the limit (the seat is answering again).
 * Nothing here guesses a plan's size.
 */
import type { SeatLimits, SeatWindow } from '../../../shared/pace';

/** Longest window accepted, in minutes (a year). */
const WINDOW_MINUTES_MAX = 525_600;
/** Reset times a little before the record are clock skew, not the past (ms). */
const SKEW_MS = 60_000;
/** Slack over a window's length for a reset time (ms). */
const RESET_SLACK_MS = 3_600_000;
/** Furthest reset accepted when the window's length is not recorded, and for a usage-limit message (ms). */
const RESET_FAR_MS = 31 * 86_400_000;

/** A seat's running plan records. */
export interface LimitFold {
  primary: SeatWindow | null;
  secondary: SeatWindow | null;
  limited: SeatLimits['limited'];
  skipped: number;
}

/** A fresh fold. */
export function createLimitFold(): LimitFold {
  return { primary: null, secondary: null, limited: null, skipped: 0 };
}

/** The contract's view of a fold, or undefined when it holds nothing (no record, nothing skipped). */
export function seatLimits(fold: LimitFold | undefined): SeatLimits | undefined {
  if (!fold) return undefined;
  const windows = [fold.primary, fold.secondary].filter((window): window is SeatWindow => window !== null);
  if (windows.length === 0 && fold.limited === null && fold.skipped === 0) return undefined;
  return { windows, limited: fold.limited, skipped: fold.skipped };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Rule L1/L2: one window's record, or 'bad' when present but unsound, or null when absent. */
function readWindow(name: 'primary' | 'secondary', raw: Record<string, unknown>, recordedAtMs: number): SeatWindow | 'bad' | null {
  let used: unknown;
  let minutes: unknown;
  let resetsAtMs: number | null = null;
  if (raw[name] !== undefined || !(`${name}_used_percent` in raw)) {
    const window = raw[name];
    if (window === null || window === undefined) return null;
    if (!isObject(window)) return 'bad';
    used = window.used_percent;
    minutes = window.window_minutes;
    if (window.resets_at !== undefined && window.resets_at !== null) {
      if (!finite(window.resets_at)) return 'bad';
      resetsAtMs = window.resets_at * 1000;
    } else if (window.resets_in_seconds !== undefined && window.resets_in_seconds !== null) {
      if (!finite(window.resets_in_seconds) || window.resets_in_seconds < 0) return 'bad';
      resetsAtMs = recordedAtMs + window.resets_in_seconds * 1000;
    }
  } else {
    used = raw[`${name}_used_percent`];
    minutes = raw[`${name}_window_minutes`];
    if (used === null) return null;
  }
  if (!finite(used) || used < 0 || used > 100) return 'bad';
  if (minutes !== undefined && minutes !== null && (!finite(minutes) || !Number.isInteger(minutes) || minutes <= 0 || minutes > WINDOW_MINUTES_MAX)) return 'bad';
  const length = typeof minutes === 'number' ? minutes : null;
  if (resetsAtMs !== null) {
    const furthest = length === null ? RESET_FAR_MS : length * 60_000 + RESET_SLACK_MS;
    if (resetsAtMs < recordedAtMs - SKEW_MS || resetsAtMs > recordedAtMs + furthest) return 'bad';
  }
  return { window: name, minutes: length, usedPercent: used, resetsAt: resetsAtMs === null ? null : new Date(resetsAtMs).toISOString(), recordedAt: new Date(recordedAtMs).toISOString() };
}

/** Folds a Codex `token_count` event's `rate_limits` recorded at `recordedAt` (rules L1–L3). */
export function foldRateLimits(fold: LimitFold, rateLimits: unknown, recordedAt: string | null): void {
  if (rateLimits === undefined || rateLimits === null) return;
  const recordedAtMs = recordedAt === null ? Number.NaN : Date.parse(recordedAt);
  if (!isObject(rateLimits) || !Number.isFinite(recordedAtMs)) {
    fold.skipped += 1;
    return;
  }
  for (const name of ['primary', 'secondary'] as const) {
    const window = readWindow(name, rateLimits, recordedAtMs);
    if (window === null) continue;
    if (window === 'bad') {
      fold.skipped += 1;
      continue;
    }
    const kept = fold[name];
    if (kept && Date.parse(kept.recordedAt) > recordedAtMs) {
      fold.skipped += 1; // rule L3
      continue;
    }
    fold[name] = window;
  }
}

const LIMIT_1X = /Claude AI usage limit reached\|(\d{1,13})/;
const LIMIT_2X = /(?:hit your (?:usage )?limit|limit reached)\s*[·∙•|-]?\s*resets?\s+(?:at\s+)?([^\n]{1,80})/i;

/** The text blocks of a message's content. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isObject(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** Folds one parsed Claude journal line (rule L4). */
export function foldClaudeLimit(fold: LimitFold, record: Record<string, unknown>): void {
  if (record.type !== 'assistant' || !isObject(record.message)) return;
  const message = record.message;
  const recordedAtMs = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
  const apiError = record.isApiErrorMessage === true || message.model === '<synthetic>';
  if (!apiError) {
    // A real answer after the limit: the seat is working again.
    if (fold.limited !== null && isObject(message.usage) && Number.isFinite(recordedAtMs) && recordedAtMs > Date.parse(fold.limited.recordedAt)) fold.limited = null;
    return;
  }
  const text = messageText(message.content);
  const old = LIMIT_1X.exec(text);
  const wording = old ? null : LIMIT_2X.exec(text);
  if (!old && !wording) return;
  if (!Number.isFinite(recordedAtMs)) {
    fold.skipped += 1;
    return;
  }
  let resetsAtMs: number | null = old ? Number(old[1]) * 1000 : resetTime(wording![1], recordedAtMs);
  if (resetsAtMs !== null && (resetsAtMs < recordedAtMs - SKEW_MS || resetsAtMs > recordedAtMs + RESET_FAR_MS)) resetsAtMs = null;
  if (resetsAtMs === null) fold.skipped += 1;
  fold.limited = { resetsAt: resetsAtMs === null ? null : new Date(resetsAtMs).toISOString(), recordedAt: new Date(recordedAtMs).toISOString() };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const RESET_TEXT = /^(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*(?:\(([^)]{1,64})\))?/i;

/** The next time after `afterMs` that reads as "3pm", "3:30pm", "15:00" or "Dec 8, 3pm", in the zone named in brackets (else local). */
export function resetTime(text: string, afterMs: number): number | null {
  const match = RESET_TEXT.exec(text.trim());
  if (!match) return null;
  const [, monthName, dayText, hourText, minuteText, meridiem, zoneText] = match;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59) return null;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  } else if (hour > 23) return null;
  const zone = zoneText && validZone(zoneText.trim()) ? zoneText.trim() : undefined;
  const start = wallParts(afterMs, zone);
  const month = monthName === undefined ? start.month : MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0) return null;
  const day = dayText === undefined ? start.day : Number(dayText);
  if (day < 1 || day > 31) return null;
  for (let step = 0; step < 2; step += 1) {
    // Without a date: today, else tomorrow. With one: this year, else next year.
    const candidate = monthName === undefined ? fromWall(start.year, month, day + step, hour, minute, zone) : fromWall(start.year + step, month, day, hour, minute, zone);
    if (candidate > afterMs) return candidate;
  }
  return null;
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function wallParts(ms: number, zone: string | undefined): { year: number; month: number; day: number; hour: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, Number(part.value)]),
  );
  return { year: parts.year, month: parts.month - 1, day: parts.day, hour: parts.hour, minute: parts.minute };
}

/** The instant a wall-clock time in `zone` stands for (the zone's offset found by comparing, twice for DST edges). */
function fromWall(year: number, month: number, day: number, hour: number, minute: number, zone: string | undefined): number {
  const wanted = Date.UTC(year, month, day, hour, minute);
  let guess = wanted;
  for (let round = 0; round < 2; round += 1) {
    const seen = wallParts(guess, zone);
    guess += wanted - Date.UTC(seen.year, seen.month, seen.day, seen.hour, seen.minute);
  }
  return guess;
}
