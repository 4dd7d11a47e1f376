/** Discovery of the sessions the owner could open, cached briefly and marked with who already holds them. */
import type { Candidate, Harness } from '../../../shared/schemas';
import type { SeatReader } from '../../sources/readers/port';
import type { PersonaPort } from './ports';
import { seatIdOf } from './seatId';

/** How long discovered candidates are cached. */
const CANDIDATE_CACHE_MS = 3000;

/** The candidates list with its cache. */
export class CandidateList {
  private cache: { at: number; list: Candidate[] } | null = null;

  constructor(
    private readonly readers: Partial<Record<Harness, SeatReader>>,
    private readonly personas: PersonaPort,
    private readonly now: () => number,
    private readonly log?: (message: string) => void,
  ) {}

  /** Sessions the owner could open, newest first, from metadata only. */
  async list(options: { refresh?: boolean } = {}): Promise<Candidate[]> {
    const cached = this.cache;
    if (!options.refresh && cached && this.now() - cached.at < CANDIDATE_CACHE_MS) return this.markOpened(cached.list);
    const lists = await Promise.all(
      Object.values(this.readers).map(async (reader) => {
        try {
          return await reader!.discover({ limit: 200 });
        } catch (error) {
          this.log?.(`pixelfleet: discovery of ${reader!.harness} sessions failed: ${String(error)}`);
          return [];
        }
      }),
    );
    const list = lists.flat().sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
    this.cache = { at: this.now(), list };
    return this.markOpened(list);
  }

  private async markOpened(list: Candidate[]): Promise<Candidate[]> {
    const personas = await this.personas.list();
    const holders = new Map(personas.flatMap((persona) => (persona.seat ? [[seatIdOf(persona.seat), persona.name] as const] : [])));
    return list.map((candidate) => {
      const holder = holders.get(candidate.id);
      return holder === undefined ? { ...candidate, opened: false } : { ...candidate, opened: true, openedBy: holder };
    });
  }
}
