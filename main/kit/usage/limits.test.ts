// Plan windows and usage limits as recorded (issue 41, rules L1–L4), over hand-written rollout and journal lines.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldCodexUsageLine } from '../../sources/readers/codex/usage';
import { SeatLimitsSchema } from '../../../shared/limits';
import { foldCodexUsage, createCodexUsage } from '../../sources/readers/codex/usageFold';
import { createLimitFold, foldClaudeLimit, foldRateLimits, resetTime, seatLimits } from './limits';

const T0 = Date.parse('2026-12-07T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A Codex `token_count` payload as a rollout holds it (info null: the rate limits still count). */
const tokenCount = (rateLimits: unknown) => ({ type: 'token_count', info: null, rate_limits: rateLimits });

describe('Codex rate limits (rules L1–L3)', () => {
  it('L1: reads the resets_at era, the resets_in_seconds era and the flat era, also from events whose info is null', () => {
    const fold = createCodexUsage();
    foldCodexUsage(fold, 'event_msg', tokenCount({ primary: { used_percent: 12.5, window_minutes: 300, resets_at: seconds(T0) + 3600 }, secondary: { used_percent: 40, window_minutes: 10080, resets_at: seconds(T0) + 3 * 86400 } }), iso(T0));
    expect(seatLimits(fold.limits)).toEqual({
      windows: [
        { window: 'primary', minutes: 300, usedPercent: 12.5, resetsAt: iso(T0 + 3_600_000), recordedAt: iso(T0) },
        { window: 'secondary', minutes: 10080, usedPercent: 40, resetsAt: iso(T0 + 3 * 86_400_000), recordedAt: iso(T0) },
      ],
      limited: null,
      skipped: 0,
    });
    const older = createLimitFold();
    foldRateLimits(older, { primary: { used_percent: 5, window_minutes: 300, resets_in_seconds: 600 }, secondary: null }, iso(T0));
    expect(older.primary).toMatchObject({ usedPercent: 5, resetsAt: iso(T0 + 600_000) });
    expect(older.secondary).toBeNull();
    const flat = createLimitFold();
    foldRateLimits(flat, { primary_used_percent: 70, secondary_used_percent: 20, primary_to_secondary_ratio_percent: 30, primary_window_minutes: 300, secondary_window_minutes: 10080 }, iso(T0));
    expect(flat.primary).toMatchObject({ usedPercent: 70, minutes: 300, resetsAt: null });
    expect(flat.secondary).toMatchObject({ usedPercent: 20, minutes: 10080, resetsAt: null });
    expect(SeatLimitsSchema.parse(seatLimits(flat))).toBeTruthy();
  });

  it('L2: absurd or missing figures, a reset in the past or far ahead are skipped and counted, the sound window kept', () => {
    const fold = createLimitFold();
    foldRateLimits(fold, { primary: { used_percent: 140, window_minutes: 300 }, secondary: { used_percent: 10, window_minutes: 10080, resets_at: seconds(T0) + 86400 } }, iso(T0));
    foldRateLimits(fold, { primary: { window_minutes: 300 } }, iso(T0 + 1000));
    foldRateLimits(fold, { primary: { used_percent: 'a lot' } }, iso(T0 + 2000));
    foldRateLimits(fold, { primary: { used_percent: 10, window_minutes: -5 } }, iso(T0 + 3000));
    foldRateLimits(fold, { primary: { used_percent: 10, window_minutes: 300, resets_at: seconds(T0) - 3600 } }, iso(T0 + 4000)); // reset in the past
    foldRateLimits(fold, { primary: { used_percent: 10, window_minutes: 300, resets_at: seconds(T0) + 40 * 86400 } }, iso(T0 + 5000)); // far ahead
    foldRateLimits(fold, 'not an object', iso(T0 + 6000));
    foldRateLimits(fold, { primary: { used_percent: 10, window_minutes: 300 } }, null); // no time of its own
    expect(fold.primary).toBeNull();
    expect(fold.secondary).toMatchObject({ usedPercent: 10 });
    expect(fold.skipped).toBe(8);
  });

  it('L3: several windows over time: the newest record wins, a reset starts the next window, a record out of order is skipped', () => {
    const fold = createLimitFold();
    const window = (used: number, at: number, resetAt: number) => foldRateLimits(fold, { primary: { used_percent: used, window_minutes: 300, resets_at: seconds(resetAt) } }, iso(at));
    window(20, T0, T0 + 4 * 3_600_000);
    window(85, T0 + 3_600_000, T0 + 4 * 3_600_000);
    window(3, T0 + 5 * 3_600_000, T0 + 9 * 3_600_000); // the window reset: a new one
    window(99, T0 + 2 * 3_600_000, T0 + 4 * 3_600_000); // clock skew: older than the kept record
    expect(fold.primary).toMatchObject({ usedPercent: 3, resetsAt: iso(T0 + 9 * 3_600_000) });
    expect(fold.skipped).toBe(1);
  });
});

const assistant = (timestamp: string, text: string, extra: Record<string, unknown> = {}, model = '<synthetic>') => ({
  type: 'assistant',
  timestamp,
  ...extra,
  message: { id: `msg_${timestamp}`, role: 'assistant', model, content: [{ type: 'text', text }], usage: { input_tokens: 0, output_tokens: 0 } },
});

describe('Claude usage limits (rule L4)', () => {
  it('1.x: "Claude AI usage limit reached|<unix seconds>" marks the seat limited until then; a later real answer ends it', () => {
    const fold = createLimitFold();
    foldClaudeLimit(fold, assistant(iso(T0), `Claude AI usage limit reached|${seconds(T0) + 7200}`, { isApiErrorMessage: true }));
    expect(fold.limited).toEqual({ resetsAt: iso(T0 + 7_200_000), recordedAt: iso(T0) });
    foldClaudeLimit(fold, assistant(iso(T0 + 60_000), 'Working on it.', {}, 'claude-sonnet-4-5'));
    expect(fold.limited).toBeNull();
  });

  it('2.x: "You\'ve hit your limit · resets 3pm (Europe/Berlin)" is the next 15:00 in that zone after the record', () => {
    const fold = createLimitFold();
    foldClaudeLimit(fold, assistant('2026-12-07T10:00:00.000Z', "You've hit your limit · resets 3pm (Europe/Berlin)", { isApiErrorMessage: true }));
    expect(fold.limited).toEqual({ resetsAt: '2026-12-07T14:00:00.000Z', recordedAt: '2026-12-07T10:00:00.000Z' });
    // A time already past today is tomorrow's; minutes and a 24-hour clock are read too.
    expect(resetTime('9:30am (UTC)', Date.parse('2026-12-07T10:00:00.000Z'))).toBe(Date.parse('2026-12-08T09:30:00.000Z'));
    expect(resetTime('Dec 9, 5pm (UTC)', Date.parse('2026-12-07T10:00:00.000Z'))).toBe(Date.parse('2026-12-09T17:00:00.000Z'));
    expect(resetTime('soon', T0)).toBeNull();
  });

  it('a limit message with no readable reset is limited with resetsAt null and counted; a model\'s ordinary text about limits is not a limit', () => {
    const fold = createLimitFold();
    foldClaudeLimit(fold, assistant(iso(T0), 'You have hit your limit · resets whenever', { isApiErrorMessage: true }));
    expect(fold.limited).toEqual({ resetsAt: null, recordedAt: iso(T0) });
    expect(fold.skipped).toBe(1);
    const other = createLimitFold();
    foldClaudeLimit(other, assistant(iso(T0), "If you've hit your limit · resets 3pm, wait.", {}, 'claude-sonnet-4-5'));
    expect(other.limited).toBeNull();
    // An absurd reset time (years ahead) is not shown as a fact.
    foldClaudeLimit(other, assistant(iso(T0), `Claude AI usage limit reached|${seconds(T0) + 400 * 86400}`, { isApiErrorMessage: true }));
    expect(other.limited).toEqual({ resetsAt: null, recordedAt: iso(T0) });
  });
});

describe('a hand-written rollout (fixtures/pace/codex-rate-limits.jsonl)', () => {
  it('keeps the newest record of each window across a reset, skips and counts the bad record', async () => {
    const fold = createCodexUsage();
    const text = await readFile(join(import.meta.dirname, 'fixtures', 'pace', 'codex-rate-limits.jsonl'), 'utf8');
    for (const line of text.split('\n')) if (line) foldCodexUsageLine(fold, line);
    expect(seatLimits(fold.limits)).toEqual({
      windows: [
        { window: 'primary', minutes: 300, usedPercent: 92.5, resetsAt: '2026-12-07T16:00:00.000Z', recordedAt: '2026-12-07T12:00:00.000Z' },
        { window: 'secondary', minutes: 10080, usedPercent: 40, resetsAt: '2026-12-10T09:00:00.000Z', recordedAt: '2026-12-07T12:00:00.000Z' },
      ],
      limited: null,
      skipped: 2,
    });
  });
});
