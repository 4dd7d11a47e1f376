/**
 * Which budget facts deserve a notification (issue 41), pure. Rules:
 * P1: a seat whose context fill reaches `contextWarnPercent` notifies once ("context 92 % — near auto-compact"); it
 *     notifies again only after its fill fell below the mark (an auto-compact) and rose again. A seat already past
 *     the mark at the first census is the baseline and does not notify (as rule N1).
 * P2: a plan window whose recorded use reaches `windowWarnPercent`, or that is projected to run out before its reset,
 *     notifies once per window: a window is its harness, name and reset time, so the next window notifies afresh.
 * P3: a window's projection is its use so far spread over the time it has run (the window's length minus the time
 *     to its reset), carried to its end; only after a tenth of the window has run, never from a stale record (reset
 *     passed) and never from a record without a length or a reset time.
 * Nothing notifies while `budget.on` is false.
 */
import type { Notification } from '../../../shared/contract';
import type { BudgetSettings, PlanLimit } from '../../../shared/pace';
import type { FleetSnapshot } from '../../../shared/schemas';
import { planLimits } from '../usage/planLimits';
import { harnessText } from '../../../shared/usagePhrases';

/** What the rules remember between censuses: seats past the context mark, and windows already notified. */
export interface PaceMarks {
  contexts: Set<string>;
  windows: Set<string>;
}

type WindowLimit = Extract<PlanLimit, { window: string }>;

/** Rule P3: the use (percent) a window is projected to reach at its reset, or null when it cannot be told. */
export function projectedPercent(limit: WindowLimit, nowMs: number): number | null {
  if (limit.minutes === null || limit.resetsAt === null) return null;
  const resetMs = Date.parse(limit.resetsAt);
  const recordedMs = Date.parse(limit.recordedAt);
  if (!(resetMs > nowMs)) return null;
  const lengthMs = limit.minutes * 60_000;
  const ranMs = lengthMs - (resetMs - recordedMs);
  if (ranMs < lengthMs / 10) return null;
  return (limit.usedPercent * lengthMs) / ranMs;
}


/** A window's name in words: its length when known ("5 h", "7 d"), else primary/secondary. */
function windowName(limit: WindowLimit): string {
  if (limit.minutes === null) return `${limit.window} window`;
  return limit.minutes % 1440 === 0 ? `${limit.minutes / 1440} d window` : limit.minutes % 60 === 0 ? `${limit.minutes / 60} h window` : `${limit.minutes} min window`;
}

/** The notifications a new snapshot deserves, and the marks for the next one (`previous` null: the first census). */
export function decidePaceNotes(previous: PaceMarks | null, snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>, budget: BudgetSettings, nowMs: number, sound: boolean): { notes: Notification[]; marks: PaceMarks } {
  const marks: PaceMarks = { contexts: new Set(), windows: new Set(previous?.windows ?? []) };
  const notes: Notification[] = [];
  if (!budget.on) return { notes, marks };
  const names = new Map(snapshot.personas.map((persona) => [persona.id, persona.name]));
  for (const seat of snapshot.seats) {
    const fill = seat.usage?.context?.fill;
    if (fill === null || fill === undefined || !Number.isFinite(fill)) continue;
    const percent = Math.floor(fill * 100 + 1e-9);
    if (percent < budget.contextWarnPercent) continue;
    marks.contexts.add(seat.id);
    if (previous === null || previous.contexts.has(seat.id)) continue; // P1
    notes.push({ seatId: seat.id, personaId: seat.personaId, title: names.get(seat.personaId) ?? seat.personaId, body: `context ${percent} % — near auto-compact`, budget: { kind: 'context', key: seat.id }, certain: true, sound });
  }
  for (const limit of planLimits(snapshot.seats, nowMs).limits) {
    if (!('window' in limit)) continue;
    if (limit.resetsAt !== null && Date.parse(limit.resetsAt) <= nowMs) continue; // a window that reset says nothing now
    const key = `${limit.harness}|${limit.window}|${limit.resetsAt ?? limit.recordedAt}`;
    if (marks.windows.has(key)) continue;
    const projected = projectedPercent(limit, nowMs);
    const full = limit.usedPercent >= budget.windowWarnPercent;
    if (!full && (projected === null || projected < 100)) continue;
    marks.windows.add(key); // P2
    const seat = snapshot.seats.find((entry) => entry.id === limit.seatId);
    const resets = limit.resetsAt === null ? '' : ` — resets ${clock(limit.resetsAt)}`;
    const body = full ? `${harnessText(limit.harness)} ${windowName(limit)} ${Math.round(limit.usedPercent)} % used${resets}` : `${harnessText(limit.harness)} ${windowName(limit)} projected to run out before it resets${resets}`;
    notes.push({ seatId: limit.seatId, personaId: seat?.personaId ?? limit.seatId, title: 'Plan window', body, budget: { kind: 'window', key }, certain: true, sound });
  }
  return { notes, marks };
}

function clock(iso: string): string {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}
