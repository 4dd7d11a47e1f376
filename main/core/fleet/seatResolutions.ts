/**
 * Seat confinement for the fleet: a session is looked up by its id under the configured homes, and a stored seat's
 * resolution is reused for a while so a census of unchanged seats does not search the homes again.
 */
import type { Harness, Persona, SeatAddress } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { samePlain } from '../../../shared/patch';
import type { SeatReader } from '../../sources/readers/port';
import { harnessName } from '../../sources/readers/registry';
import { seatIdOf } from './seatId';
import { SEAT_RULE, unresolvedReason, type SeatResolution } from './seatResolver';

/**
 * How long a stored seat's resolution is reused, in ms. The store holds addresses; the census reads only the address
 * the readers resolve for the seat's session under the configured homes (seat confinement), looked up again this often.
 */
const STORED_SEAT_RECHECK_MS = 30_000;

/** The readers' answers to "where is this session", with stored seats' answers cached by seat id. */
export class SeatResolutions {
  /** Stored seats resolved under the configured homes, by seat id, with when they were resolved. */
  private readonly stored = new Map<string, { at: number; resolution: SeatResolution }>();

  constructor(
    private readonly readers: Partial<Record<Harness, SeatReader>>,
    private readonly now: () => number,
    private readonly log?: (message: string) => void,
  ) {}

  /**
   * The address discovery gives a session under the configured homes, looked up by its id alone (no listing limit),
   * or why there is none (seat confinement). Never cached: a request sees the disk as it is now.
   */
  async resolveSession(harness: Harness, sessionId: string): Promise<SeatResolution> {
    const reader = this.readers[harness];
    const candidateId = seatIdOf({ harness, sessionId });
    if (!reader) return { ok: false, reason: `${harnessName(harness)} seats are not read by this build (${SEAT_RULE}).` };
    try {
      const found = await reader.resolve(sessionId);
      return found ? { ok: true, seat: found.seat } : { ok: false, reason: unresolvedReason(candidateId) };
    } catch (error) {
      this.log?.(`pixelfleet: resolving ${shownValue(candidateId)} failed: ${String(error)}`);
      return { ok: false, reason: unresolvedReason(candidateId) };
    }
  }

  /** A stored seat's resolution, reused for a while so a census of unchanged seats does not search the homes again. */
  async resolveStored(stored: SeatAddress): Promise<SeatResolution> {
    return this.reusable(stored) ?? this.lookUpStored(stored);
  }

  /** The stored seat's resolution while it may be reused, without waiting (null: it must be looked up). */
  private reusable(stored: SeatAddress): SeatResolution | null {
    const cached = this.stored.get(seatIdOf(stored));
    return cached && this.now() - cached.at < STORED_SEAT_RECHECK_MS ? cached.resolution : null;
  }

  /** Looks the stored seat up again, keeping the resolution it had when nothing changed. */
  private async lookUpStored(stored: SeatAddress): Promise<SeatResolution> {
    const id = seatIdOf(stored);
    const cached = this.stored.get(id);
    const resolution = await this.resolveSession(stored.harness, stored.sessionId);
    // Keep the same object while nothing changed, so seats compare equal without work.
    const same = cached && samePlain(cached.resolution, resolution);
    this.stored.set(id, { at: this.now(), resolution: same ? cached.resolution : resolution });
    return same ? cached.resolution : resolution;
  }

  /** The resolved address of each seated persona's seat (unresolved seats are left out: they are never read). */
  async resolvedSeats(personas: Persona[]): Promise<SeatAddress[]> {
    const resolved: SeatAddress[] = [];
    for (const persona of personas) {
      if (!persona.seat || !this.readers[persona.seat.harness]) continue;
      // Reused resolutions are taken without a wait: the watcher asks for every seat after each census.
      const resolution = this.reusable(persona.seat) ?? (await this.lookUpStored(persona.seat));
      if (resolution.ok) resolved.push(resolution.seat);
    }
    return resolved;
  }

  /** True when the stored seat resolved at its last look-up (only those may be followed, their homes included). */
  resolved(seatId: string): boolean {
    return this.stored.get(seatId)?.resolution.ok === true;
  }

  /** Forgets a stored seat's resolution and tells its reader to forget the session it resolved to. */
  forget(seatId: string): void {
    const resolved = this.stored.get(seatId)?.resolution;
    if (resolved?.ok) this.readers[resolved.seat.harness]?.forget(resolved.seat);
    this.stored.delete(seatId);
  }
}
