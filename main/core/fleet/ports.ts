/** The narrow views of other services that the fleet needs (structural, so tests can pass counting fakes). */
import type { Notice, Persona, SeatAddress, WorkItem } from '../../../shared/schemas';
import type { ChangeListener } from '../../kit/changes';

/** What the fleet uses of the persona store. */
export interface PersonaPort {
  list(): Promise<Persona[]>;
  hire(input: { name?: string; role?: string | null; seat?: SeatAddress }): Promise<Persona>;
  setRole(personaId: string, role: string | null): Promise<Persona>;
  moveSeat(personaId: string, seat: SeatAddress | null): Promise<Persona>;
  rename(personaId: string, name: string): Promise<Persona>;
  refresh(): Promise<boolean>;
  /** Announces each change; a write resolves after its listeners finished. */
  onChange(listener: ChangeListener<void>): () => void;
  notices(): Notice[];
}

/** A station's backlog from the work sources' caches. */
export interface Backlog {
  items: WorkItem[];
  error?: string;
}

/** What the fleet uses of the work-item service. */
export interface WorkPort {
  backlogFor(roles: string[]): Map<string, Backlog>;
  onChange(listener: ChangeListener<void>): () => void;
}
