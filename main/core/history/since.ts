/** `--since` and `--until` of `pixelfleet history`: a duration back from now (`90s`, `15m`, `2h`, `7d`, `1h30m`) or an ISO time. */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The instant the option `flag` names (ms), or the sentence saying what it accepts. Pure. */
export function parseSince(text: string, now: number, flag = '--since'): { ok: true; at: number } | { ok: false; reason: string } {
  const value = text.trim();
  const duration = /^(?:\d+[smhd])+$/i.test(value) ? [...value.matchAll(/(\d+)([smhd])/gi)] : null;
  if (duration) {
    const ms = duration.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit.toLowerCase()], 0);
    if (ms > 0 && Number.isSafeInteger(ms)) return { ok: true, at: now - ms };
  }
  // An ISO date or date and time (a bare number or a word is not one, whatever Date.parse makes of it).
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return { ok: true, at };
  }
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return { ok: false, reason: `${flag} "${shown}" is neither a duration (90s, 15m, 2h, 7d, 1h30m) nor an ISO time (2026-12-05T08:00:00Z).` };
}
