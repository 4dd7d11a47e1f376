/**
 * What `pixelfleet doctor` reads, read-only: the app home's opened seats (personas.json), each resolved again by its
 * session id under the harness homes and projected by its own reader (the same bounded reads as the world); for a
 * harness with no opened seat, the newest sessions discovery lists under its homes (at most DOCTOR_SAMPLE_SESSIONS,
 * each a bounded tail read). An app home a demo ran in (`<home>/demo/`) is read with the demo's own homes, as the app
 * reads it. Nothing is written: the readers get no app home, so no index file is kept.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness, SeatAddress } from '../../../shared/schemas';
import type { HarnessHomes } from '../../sources/readers/homes';
import type { SeatReader } from '../../sources/readers/port';
import { createReaders, harnessOf, HARNESSES } from '../../sources/readers/registry';
import { DOCTOR_PERSONAS_MAX_BYTES, DOCTOR_SAMPLE_SESSIONS } from './bounds';
import { guardSeat } from '../../core/fleet/seatGuard';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import type { Projection } from '../../sources/readers/port';
import type { HarnessFindings } from './report';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** The demo's own homes inside an app home a demo ran in, or null. */
export async function demoHomes(home: string): Promise<HarnessHomes | null> {
  const demo = join(home, 'demo');
  if (!(await exists(join(demo, 'claude'))) && !(await exists(join(demo, 'codex')))) return null;
  return { claude: join(demo, 'claude'), codex: join(demo, 'codex'), opencodeDb: join(demo, 'opencode', 'opencode.db'), opencodeDataDir: join(demo, 'opencode') };
}

/** The seats personas.json holds, by harness; a file that cannot be read or parsed is reported, never changed. */
export async function openedSeats(home: string): Promise<{ seats: SeatAddress[]; problem: string | null }> {
  const file = join(home, 'personas.json');
  let text: string;
  try {
    const info = await stat(file);
    if (info.size > DOCTOR_PERSONAS_MAX_BYTES) return { seats: [], problem: `${file} is over ${DOCTOR_PERSONAS_MAX_BYTES} bytes` };
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { seats: [], problem: code === 'ENOENT' ? null : `${file} could not be read (${code ?? 'error'})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { seats: [], problem: `${file} is not JSON` };
  }
  const personas = (parsed as { personas?: unknown })?.personas;
  const seats: SeatAddress[] = [];
  for (const persona of Array.isArray(personas) ? personas : []) {
    const seat = (persona as { seat?: unknown })?.seat as Partial<SeatAddress> | undefined;
    if (seat && typeof seat.sessionId === 'string' && typeof seat.harness === 'string' && seat.harness in HARNESSES) seats.push(seat as SeatAddress);
  }
  return { seats, problem: null };
}

/** Reads one harness: its opened seats, else a sample of its newest sessions. */
async function gatherHarness(harness: Harness, reader: SeatReader, homes: HarnessHomes, opened: SeatAddress[]): Promise<HarnessFindings> {
  const descriptor = harnessOf(harness);
  const findings: HarnessFindings = {
    harness, name: descriptor.displayName, homes: await descriptor.storeHomes(homes), source: opened.length > 0 ? 'seats' : 'sample',
    tested: descriptor.known.tested, censuses: [], unreadable: [], missing: [],
  };
  // A store is checked as a whole first: one that cannot be opened or lacks the tables its reader needs lists no
  // session at all.
  for (const home of descriptor.storeProblem ? findings.homes : []) {
    const problem = home.found ? await descriptor.storeProblem?.(home.path) : null;
    if (problem) findings.unreadable.push({ what: home.path, reason: problem });
  }
  let seats: SeatAddress[] = [];
  if (opened.length > 0) {
    for (const stored of opened) {
      // Seat confinement: a stored seat is read only where discovery resolves its session id under the homes.
      const candidate = await reader.resolve(stored.sessionId).catch(() => null);
      if (candidate) seats.push(candidate.seat);
      else findings.missing.push({ what: `${harness}:${stored.sessionId}`, reason: 'no longer resolves under the harness homes' });
    }
  } else if (findings.homes.some((home) => home.found)) {
    try {
      seats = (await reader.discover({ limit: DOCTOR_SAMPLE_SESSIONS })).map((candidate) => candidate.seat);
    } catch (error) {
      findings.unreadable.push({ what: findings.homes.map((home) => home.path).join(', '), reason: (error as Error).message });
    }
  }
  for (const seat of seats) {
    const projection = await reader.project(seat).catch((error: unknown) => ({ ok: false as const, reason: (error as Error).message }));
    if (!projection.ok) findings.unreadable.push({ what: seat.path ?? `${harness}:${seat.sessionId}`, reason: projection.reason });
    else {
      if (projection.census) findings.censuses.push(projection.census);
      // Issue 36: what the fleet's seat guard would drop is named here too (the world shows the rest of the seat).
      const dropped = contractFaults(seat, projection);
      if (dropped) findings.unreadable.push({ what: seat.path ?? `${harness}:${seat.sessionId}`, reason: `part of this seat breaks the contract and is not shown: ${dropped}` });
    }
  }
  return findings;
}

/** Gathers every harness's findings for an app home over the given harness homes. */
export async function gatherFindings(homes: HarnessHomes, opened: SeatAddress[]): Promise<HarnessFindings[]> {
  const readers = createReaders(homes);
  try {
    const findings: HarnessFindings[] = [];
    for (const harness of Object.keys(HARNESSES) as Harness[]) {
      const reader = readers[harness];
      if (!reader) continue;
      findings.push(await gatherHarness(harness, reader, homes, opened.filter((seat) => seat.harness === harness)));
    }
    return findings;
  } finally {
    for (const reader of Object.values(readers)) reader?.dispose();
  }
}

/** What the fleet's seat guard would drop from this projection, as one phrase, or null when it passes whole. */
export function contractFaults(seat: SeatAddress, projection: Extract<Projection, { ok: true }>): string | null {
  const guarded = guardSeat({
    id: `${seat.harness}:${seat.sessionId}`,
    harness: seat.harness,
    personaId: 'doctor',
    address: seat,
    activity: evaluateActivity(projection.activity, Date.now(), projection.lastWriteMs),
    subagents: projection.subagents,
    ...(projection.usage ? { usage: projection.usage } : {}),
  });
  return guarded.dropped.length > 0 ? guarded.dropped.join('; ') : null;
}
