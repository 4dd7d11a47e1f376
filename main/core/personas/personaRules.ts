/**
 * Pure changes to the list of personas: hire, set role, move seat, rename, find. Each change is a function of the
 * current personas so the service can re-apply it to a fresher copy when another writer got there first.
 */
import { appearanceFor } from '../../../shared/appearance';
import { NAME_MAX_LENGTH, shownValue } from '../../../shared/bounds';
import { parseRole } from '../../../shared/roles';
import { SeatAddressSchema, type Persona, type SeatAddress } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';

/** The longest persona name, in characters (one bound with the contract's). */
export { NAME_MAX_LENGTH };

/** The result of a change: the new list, the persona it touched, and whether anything changed (no write if not). */
export type PersonaChange = { personas: Persona[]; persona: Persona; changed: boolean };

/** Validates a persona name: trimmed, inner whitespace collapsed, 1–48 characters, no control characters. */
export function parsePersonaName(input: unknown): { ok: true; name: string } | { ok: false; reason: string } {
  if (typeof input !== 'string') return { ok: false, reason: 'A name must be text.' };
  const name = input.normalize('NFC').trim().replace(/\s+/gu, ' ');
  const length = Array.from(name).length;
  if (length === 0) return { ok: false, reason: 'A name needs at least one visible character.' };
  if (length > NAME_MAX_LENGTH) {
    return { ok: false, reason: `A name is at most ${NAME_MAX_LENGTH} characters (this one has ${length}).` };
  }
  if (/\p{Cc}|\p{Cf}/u.test(name)) return { ok: false, reason: 'A name cannot hold control or invisible format characters.' };
  return { ok: true, name };
}

/** Validates a role for a change: null or undefined clears it; anything else must follow the role rules. */
export function roleOrThrow(role: string | null | undefined): string | undefined {
  if (role === null || role === undefined) return undefined;
  const parsed = parseRole(role);
  if (!parsed.ok) throw new ServiceError('invalid_role', parsed.reason);
  return parsed.role;
}

function nameOrThrow(name: unknown): string {
  const parsed = parsePersonaName(name);
  if (!parsed.ok) throw new ServiceError('invalid_request', parsed.reason);
  return parsed.name;
}

/** Validates a seat address strictly enough to store it; null or undefined means no seat. */
export function seatOrThrow(seat: unknown): SeatAddress | undefined {
  if (seat === null || seat === undefined) return undefined;
  const parsed = SeatAddressSchema.safeParse(seat);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServiceError('invalid_request', `The seat is not valid (${['seat', ...issue.path].join('.')}: ${issue.message}).`);
  }
  return parsed.data;
}

/**
 * True when two addresses name the same harness session. Identity is harness + session id, the same key as the
 * fleet's seat id (main/core/fleet/seatId.ts): home, cwd and path describe where the session lives, they do not identify it.
 */
export function sameSeat(first: SeatAddress, second: SeatAddress): boolean {
  return first.harness === second.harness && first.sessionId === second.sessionId;
}

/** Refuses a seat another persona already works in: one seat, one persona. */
function assertSeatFree(personas: readonly Persona[], seat: SeatAddress, exceptId?: string): void {
  const holder = personas.find((persona) => persona.id !== exceptId && persona.seat && sameSeat(persona.seat, seat));
  if (holder) {
    throw new ServiceError(
      'invalid_request',
      `Seat ${seat.harness} ${seat.sessionId} already belongs to ${holder.name} (${holder.id}); move that persona first.`,
    );
  }
}

function byIdOrThrow(personas: readonly Persona[], personaId: string): Persona {
  const persona = personas.find((candidate) => candidate.id === personaId);
  if (!persona) throw new ServiceError('not_found', `No persona with id ${JSON.stringify(shownValue(personaId))}.`);
  return persona;
}

function replace(personas: readonly Persona[], next: Persona): PersonaChange {
  return { personas: personas.map((persona) => (persona.id === next.id ? next : persona)), persona: next, changed: true };
}

/** What a hire asks for, already validated by `hireRequest`. */
export type HireRequest = { name?: string; role?: string; seat?: SeatAddress };

/** Validates hire input once, before any attempt (so a bad request touches nothing). */
export function hireRequest(input: { name?: string; role?: string | null; seat?: SeatAddress | null }): HireRequest {
  return {
    name: input.name === undefined ? undefined : nameOrThrow(input.name),
    role: roleOrThrow(input.role),
    seat: seatOrThrow(input.seat),
  };
}

/** Adds a persona with a fresh id; the name is the requested one or `generatedName(taken names)`. */
export function hirePersona(
  personas: readonly Persona[],
  request: HireRequest,
  context: { id: string; now: string; generatedName: (taken: string[]) => string },
): PersonaChange {
  if (request.seat) assertSeatFree(personas, request.seat);
  const name = request.name ?? context.generatedName(personas.map((persona) => persona.name));
  const persona: Persona = {
    id: context.id,
    name,
    appearance: appearanceFor(context.id),
    ...(request.role === undefined ? {} : { role: request.role }),
    ...(request.seat === undefined ? {} : { seat: request.seat }),
    createdAt: context.now,
    updatedAt: context.now,
  };
  return { personas: [...personas, persona], persona, changed: true };
}

/** Sets (or clears, with undefined) the role; the appearance and the seat are untouched. */
export function setPersonaRole(personas: readonly Persona[], personaId: string, role: string | undefined, now: string): PersonaChange {
  const persona = byIdOrThrow(personas, personaId);
  if (persona.role === role) return { personas: [...personas], persona, changed: false };
  const { role: _previous, ...rest } = persona;
  return replace(personas, { ...rest, ...(role === undefined ? {} : { role }), updatedAt: now });
}

/** Moves the persona to another seat (or none); the role and the appearance are kept. */
export function movePersonaSeat(personas: readonly Persona[], personaId: string, seat: SeatAddress | undefined, now: string): PersonaChange {
  const persona = byIdOrThrow(personas, personaId);
  if (seat) assertSeatFree(personas, seat, personaId);
  if (JSON.stringify(persona.seat) === JSON.stringify(seat)) return { personas: [...personas], persona, changed: false };
  const { seat: _previous, ...rest } = persona;
  return replace(personas, { ...rest, ...(seat === undefined ? {} : { seat }), updatedAt: now });
}

/** Renames the persona (the name is validated by the caller through `parsePersonaName`). */
export function renamePersona(personas: readonly Persona[], personaId: string, name: string, now: string): PersonaChange {
  const persona = byIdOrThrow(personas, personaId);
  if (persona.name === name) return { personas: [...personas], persona, changed: false };
  return replace(personas, { ...persona, name, updatedAt: now });
}

/** Validates a new name for `rename`. */
export function renameRequest(name: unknown): string {
  return nameOrThrow(name);
}

/** Finds a persona by exact id, else by name (case-insensitive, whitespace collapsed); a name two hold is ambiguous. */
export function findPersona(personas: readonly Persona[], idOrName: string): Persona | undefined {
  const byId = personas.find((persona) => persona.id === idOrName);
  if (byId) return byId;
  const wanted = parsePersonaName(idOrName);
  if (!wanted.ok) return undefined;
  const key = wanted.name.toLowerCase();
  const matches = personas.filter((persona) => persona.name.toLowerCase() === key);
  if (matches.length > 1) {
    throw new ServiceError(
      'invalid_request',
      `${matches.length} personas are named ${JSON.stringify(wanted.name)} (${matches.map((persona) => persona.id).join(', ')}); use an id.`,
    );
  }
  return matches[0];
}
