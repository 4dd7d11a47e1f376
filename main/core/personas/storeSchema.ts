/**
 * The persona store file: its zod schema per version and the migrations that bring an older file to the current
 * version. Pure: no I/O here.
 *
 * Versions:
 * - 1: `{ schemaVersion: 1, personas }`; a role was one of the six built-ins and the appearance had no accessory;
 *   there was no revision (a single writer was assumed).
 * - 2 (current): `{ schemaVersion: 2, revision, personas }`; a role is any valid role string (shared/roles.ts) and
 *   the appearance carries an accessory; `revision` counts writes so concurrent writers can detect each other.
 */
import { z } from 'zod';
import { appearanceFor } from '../../../shared/appearance';
import { BUILT_IN_ROLES, parseRole } from '../../../shared/roles';
import { AppearanceSchema, SeatAddressSchema, type Persona } from '../../../shared/schemas';

/** The version this code writes. */
export const CURRENT_SCHEMA_VERSION = 2;

/** A role as stored: a valid role string, read back in its canonical form (built-ins folded to lowercase). */
const StoredRoleSchema = z.string().transform((value, context) => {
  const parsed = parseRole(value);
  if (!parsed.ok) {
    context.addIssue({ code: 'custom', message: parsed.reason });
    return z.NEVER;
  }
  return parsed.role;
});

/** One persona as stored by version 2. */
export const StoredPersonaSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  appearance: AppearanceSchema,
  role: StoredRoleSchema.optional(),
  seat: SeatAddressSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The whole store file, version 2. */
export const PersonaStoreSchema = z
  .object({
    schemaVersion: z.literal(2),
    revision: z.number().int().nonnegative(),
    personas: z.array(StoredPersonaSchema),
  })
  .superRefine((store, context) => {
    const seen = new Set<string>();
    store.personas.forEach((persona, index) => {
      if (seen.has(persona.id)) {
        context.addIssue({ code: 'custom', path: ['personas', index, 'id'], message: `Duplicate persona id ${persona.id}.` });
      }
      seen.add(persona.id);
    });
  });

/** The decoded store: what the service works on. */
export type PersonaStore = { schemaVersion: 2; revision: number; personas: Persona[] };

/** The store file of version 1 (see the header). */
export const PersonaStoreV1Schema = z.object({
  schemaVersion: z.literal(1),
  personas: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().min(1),
      appearance: z.object({
        body: z.number().int().min(0).max(3),
        hair: z.number().int().min(0).max(7),
        palette: z.number().int().min(0).max(7),
      }),
      role: z.enum(BUILT_IN_ROLES).optional(),
      seat: SeatAddressSchema.optional(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
});

/** Version 1 → 2: revision starts at 0, the accessory comes from the id's hash, built-in roles are kept as they are. */
export function migrateV1ToV2(store: z.infer<typeof PersonaStoreV1Schema>): unknown {
  return {
    schemaVersion: 2,
    revision: 0,
    personas: store.personas.map((persona) => ({
      ...persona,
      appearance: { ...persona.appearance, accessory: appearanceFor(persona.id).accessory },
    })),
  };
}

/** The outcome of decoding a store file's text. */
export type DecodeResult =
  | { kind: 'ok'; store: PersonaStore; migratedFrom?: number }
  | { kind: 'newer'; version: number; store: PersonaStore | null }
  | { kind: 'corrupt'; reason: string };

/** Names the first problem of a zod error in one sentence. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
  return `${where}: ${issue.message}`;
}

/** A fresh, empty store. */
export function emptyStore(): PersonaStore {
  return { schemaVersion: CURRENT_SCHEMA_VERSION, revision: 0, personas: [] };
}

/**
 * Decodes the text of a store file, migrating an older version. A file from a newer version is not corrupt: it is
 * reported as `newer` (with its personas when they still read under the current schema) so nothing overwrites it.
 */
export function decodeStore(text: string): DecodeResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', reason: `not valid JSON (${(error as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'corrupt', reason: 'not a JSON object' };
  const version = (raw as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { kind: 'corrupt', reason: 'schemaVersion is missing or not a positive integer' };
  }
  if (version > CURRENT_SCHEMA_VERSION) {
    const current = PersonaStoreSchema.safeParse({ ...raw, schemaVersion: CURRENT_SCHEMA_VERSION });
    return { kind: 'newer', version, store: current.success ? (current.data as PersonaStore) : null };
  }
  let candidate: unknown = raw;
  if (version === 1) {
    const old = PersonaStoreV1Schema.safeParse(raw);
    if (!old.success) return { kind: 'corrupt', reason: `version 1 store does not validate (${describeIssue(old.error)})` };
    candidate = migrateV1ToV2(old.data);
  }
  const parsed = PersonaStoreSchema.safeParse(candidate);
  if (!parsed.success) return { kind: 'corrupt', reason: `store does not validate (${describeIssue(parsed.error)})` };
  const store = parsed.data as PersonaStore;
  return version === CURRENT_SCHEMA_VERSION ? { kind: 'ok', store } : { kind: 'ok', store, migratedFrom: version };
}

/** The text written for a store: pretty JSON (the owner may read it) with a final newline. */
export function encodeStore(store: PersonaStore): string {
  return `${JSON.stringify(store, null, 2)}\n`;
}
