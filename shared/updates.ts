/**
 * Updates from main as changes: after the first whole snapshot (or jobs board), main sends only what changed since
 * the one before, chained by cursor (fleet) or revision (jobs). A receiver applies a change only onto the version it
 * names (`from`); any gap (a missed event, a restarted host) is healed by reading the whole thing again.
 */
import { z } from 'zod';
import { JobSchema, UnlistedSchema, jobRowKey, type Job, type JobBoard } from './jobs';
import { applyList, applyRecord, applyWhole, diffList, diffRecord, diffWhole, listPatchSchema, RecordPatchSchema, samePlain } from './patch';
import { AgentMessageSchema, NoticeSchema, PersonaSchema, SeatSchema, StationSchema, TeamSchema, type FleetSnapshot } from './schemas';
import { FleetUsageSchema } from './usage';

/** What changed between two fleet snapshots. A field left out is unchanged; null means the field is now absent. */
export const FleetPatchSchema = z.object({
  /** The cursor of the snapshot this applies to. */
  from: z.number().int().nonnegative(),
  /** The cursor of the snapshot it gives. */
  cursor: z.number().int().nonnegative(),
  seats: listPatchSchema(SeatSchema).optional(),
  personas: listPatchSchema(PersonaSchema).optional(),
  stations: z.array(StationSchema).optional(),
  notices: z.array(NoticeSchema).nullable().optional(),
  teams: z.array(TeamSchema).nullable().optional(),
  messages: z.array(AgentMessageSchema).max(50).nullable().optional(),
  ownerHome: z.string().nullable().optional(),
  usage: FleetUsageSchema.nullable().optional(),
});
export type FleetPatch = z.infer<typeof FleetPatchSchema>;

/** What changed between two jobs boards, chained by the board's revision. */
export const JobsPatchSchema = z.object({
  /** The revision of the board this applies to. */
  from: z.number().int().nonnegative(),
  /** The revision of the board it gives. */
  revision: z.number().int().nonnegative(),
  /** The instant the new board was computed (main's clock), ISO. */
  at: z.string(),
  cursor: z.number().int().nonnegative().optional(),
  jobs: listPatchSchema(JobSchema).optional(),
  aliases: RecordPatchSchema.optional(),
  unlisted: z.array(UnlistedSchema).optional(),
});
export type JobsPatch = z.infer<typeof JobsPatchSchema>;

const seatKey = (seat: { id: string }) => seat.id;
const personaKey = (persona: { id: string }) => persona.id;

/** Lists already found to have unique keys, by the key they were checked with (versions are never changed in place). */
const uniqueLists = new WeakMap<readonly unknown[], (record: never) => string>();

function uniqueKeys<T>(records: readonly T[], keyOf: (record: T) => string): boolean {
  if (uniqueLists.get(records) === keyOf) return true;
  const unique = new Set(records.map(keyOf)).size === records.length;
  if (unique) uniqueLists.set(records, keyOf);
  return unique;
}

/** The changes from `previous` to `next`, or null when they cannot be expressed as changes (send `next` whole). */
export function diffFleet(previous: FleetSnapshot, next: FleetSnapshot): FleetPatch | null {
  if (!uniqueKeys(next.seats, seatKey) || !uniqueKeys(next.personas, personaKey)) return null;
  if (!uniqueKeys(previous.seats, seatKey) || !uniqueKeys(previous.personas, personaKey)) return null;
  const patch: FleetPatch = { from: previous.cursor, cursor: next.cursor };
  const seats = diffList(previous.seats, next.seats, seatKey);
  if (seats) patch.seats = seats;
  const personas = diffList(previous.personas, next.personas, personaKey);
  if (personas) patch.personas = personas;
  if (!samePlain(previous.stations, next.stations)) patch.stations = next.stations;
  const notices = diffWhole(previous.notices, next.notices);
  if (notices !== undefined) patch.notices = notices;
  const teams = diffWhole(previous.teams, next.teams);
  if (teams !== undefined) patch.teams = teams;
  const messages = diffWhole(previous.messages, next.messages);
  if (messages !== undefined) patch.messages = messages;
  const ownerHome = diffWhole(previous.ownerHome, next.ownerHome);
  if (ownerHome !== undefined) patch.ownerHome = ownerHome;
  const usage = diffWhole(previous.usage, next.usage);
  if (usage !== undefined) patch.usage = usage;
  return patch;
}

/** The snapshot `patch` gives over `previous`, or null when it does not apply (another base, or it does not fit). */
export function applyFleetPatch(previous: FleetSnapshot, patch: FleetPatch): FleetSnapshot | null {
  if (patch.from !== previous.cursor) return null;
  const seats = applyList(previous.seats, patch.seats, seatKey);
  const personas = applyList(previous.personas, patch.personas, personaKey);
  if (!seats || !personas) return null;
  const next: FleetSnapshot = { cursor: patch.cursor, seats, personas, stations: patch.stations ?? previous.stations };
  const notices = applyWhole(previous.notices, patch.notices);
  if (notices !== undefined) next.notices = notices;
  const teams = applyWhole(previous.teams, patch.teams);
  if (teams !== undefined) next.teams = teams;
  const messages = applyWhole(previous.messages, patch.messages);
  if (messages !== undefined) next.messages = messages;
  const ownerHome = applyWhole(previous.ownerHome, patch.ownerHome);
  if (ownerHome !== undefined) next.ownerHome = ownerHome;
  const usage = applyWhole(previous.usage, patch.usage);
  if (usage !== undefined) next.usage = usage;
  return next;
}

/** True when two boards list the same jobs, aliases and unlisted counts (their instant and cursor aside). */
export function sameBoardContent(previous: JobBoard, next: JobBoard): boolean {
  return samePlain(previous.jobs, next.jobs) && samePlain(previous.aliases, next.aliases) && samePlain(previous.unlisted, next.unlisted);
}

/** The changes from one revised board to the next, or null when they cannot be expressed as changes. */
export function diffJobs(previous: JobBoard, next: JobBoard): JobsPatch | null {
  if (previous.revision === undefined || next.revision === undefined) return null;
  if (!uniqueKeys(previous.jobs, jobRowKey) || !uniqueKeys(next.jobs, jobRowKey)) return null;
  const patch: JobsPatch = { from: previous.revision, revision: next.revision, at: next.at };
  if (next.cursor !== undefined) patch.cursor = next.cursor;
  const jobs = diffList<Job>(previous.jobs, next.jobs, jobRowKey);
  if (jobs) patch.jobs = jobs;
  const aliases = diffRecord(previous.aliases, next.aliases);
  if (aliases) patch.aliases = aliases;
  if (!samePlain(previous.unlisted, next.unlisted)) patch.unlisted = next.unlisted;
  return patch;
}

/** The board `patch` gives over `previous`, or null when it does not apply. */
export function applyJobsPatch(previous: JobBoard, patch: JobsPatch): JobBoard | null {
  if (previous.revision === undefined || patch.from !== previous.revision) return null;
  const jobs = applyList<Job>(previous.jobs, patch.jobs, jobRowKey);
  if (!jobs) return null;
  const next: JobBoard = {
    jobs,
    aliases: applyRecord(previous.aliases, patch.aliases),
    unlisted: patch.unlisted ?? previous.unlisted,
    at: patch.at,
    revision: patch.revision,
  };
  const cursor = patch.cursor ?? previous.cursor;
  if (cursor !== undefined) next.cursor = cursor;
  return next;
}
