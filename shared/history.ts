/**
 * The fleet's history as main records it (issue 27): transitions only, labels only, never prompt, reply or tool
 * argument text. The page reads the retained span (the timeline bar), the world at a past moment (scrubbing) and the
 * away digest; the CLI prints the same shapes. Every time is ISO (UTC), every duration in milliseconds. zod only.
 */
import { z } from 'zod';
import type { ActivityTransition, JobTransition, PastJob, PastPersona, PastSeat, PersonaTransition, SeatTransition, UsageSample } from './pastWorld';
import { ActivityStateSchema, AppearanceSchema, FleetSnapshotSchema, HarnessSchema, NeedsWhySchema, OutcomeSchema, SeatAddressSchema } from './schemas';

/** Most buckets the timeline bar may ask for. */
export const HISTORY_BUCKETS_MAX = 2000;
/** Most needs-you spans one span answer lists (the most recent kept). */
export const HISTORY_SPANS_MAX = 5000;
/** Most entries an away digest lists. */
export const DIGEST_ENTRIES_MAX = 200;
/** Most transitions one CLI listing prints. */
export const HISTORY_LIST_MAX = 100_000;

/** An ISO instant in a request: a string that `Date.parse` reads. */
export const isoInstant = () =>
  z
    .string()
    .max(40)
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'must be an ISO date and time, e.g. 2026-12-05T08:00:00Z' });

/** A time a seat waited for the owner: from entering needs-you to leaving it (`to` null: still waiting). */
export const NeedsYouSpanSchema = z.object({
  seatId: z.string(),
  personaId: z.string(),
  why: NeedsWhySchema,
  /** False when a heuristic (elapsed time) decided the state. */
  certain: z.boolean(),
  from: z.string(),
  to: z.string().nullable(),
});
export type NeedsYouSpan = z.infer<typeof NeedsYouSpanSchema>;

/** One slice of the timeline bar: jobs started, ended and running at its end, and seats needing the owner. */
export const HistoryBucketSchema = z.object({
  /** The bucket's start. */
  at: z.string(),
  started: z.number().int().nonnegative(),
  ended: z.number().int().nonnegative(),
  /** Jobs running at the bucket's end. */
  running: z.number().int().nonnegative(),
  /** Seats in needs-you within the bucket: those whose needs-you began or ended in it, or that waited through it. */
  needsYou: z.number().int().nonnegative(),
});
export type HistoryBucket = z.infer<typeof HistoryBucketSchema>;

/**
 * The retained span for the timeline bar. `from` is null when nothing is recorded yet; `recording` false when
 * `history.days` is 0 or the store could not be written (`reason` says why). `awayMs` is how long the window must
 * have been away before the digest shows (settings.json `history.awayMinutes`).
 */
export const HistorySpanSchema = z.object({
  recording: z.boolean(),
  reason: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string(),
  bucketMs: z.number().int().positive(),
  buckets: z.array(HistoryBucketSchema).max(HISTORY_BUCKETS_MAX),
  needsYou: z.array(NeedsYouSpanSchema).max(HISTORY_SPANS_MAX),
  awayMs: z.number().int().nonnegative(),
  days: z.number().nonnegative(),
});
export type HistorySpan = z.infer<typeof HistorySpanSchema>;

/**
 * The world at a past moment, as a fleet snapshot the world draws the same way: seats with their activity and their
 * running subagents count (recent entries are the jobs running then), personas with the roles they had, stations with
 * those holders (backlogs empty: they are not recorded) and cursor 0. `exact` is false when the moment is outside the
 * retained span (the nearest recorded state is given).
 */
export const HistoryMomentSchema = z.object({
  at: z.string(),
  exact: z.boolean(),
  snapshot: FleetSnapshotSchema,
});
export type HistoryMoment = z.infer<typeof HistoryMomentSchema>;

/** Most transitions (and most usage samples) one history window carries; past it the window starts later. */
export const HISTORY_WINDOW_ROWS = 2000;
/**
 * Longest span one history window covers, in milliseconds: the last half hour (or less, when that held more rows).
 * The page checks the window against the contract when it arrives: about 2,000 rows take 10–50 ms there, once per
 * opening of the bar.
 */
export const HISTORY_WINDOW_MS = 30 * 60_000;

const ms = z.number().int();
const PastSeatSchema = z.object({
  id: z.string(),
  persona: z.string(),
  harness: HarnessSchema,
  address: SeatAddressSchema,
  activity: z.object({ state: ActivityStateSchema, why: NeedsWhySchema.nullable(), certain: z.boolean(), label: z.string().nullable(), since: ms.nullable() }),
  needsSince: ms.nullable(),
  lastAt: ms,
}) satisfies z.ZodType<PastSeat>;
const PastPersonaSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  appearance: AppearanceSchema,
  createdAt: z.string(),
  updatedAt: ms,
}) satisfies z.ZodType<PastPersona>;
const PastJobSchema = z.object({
  key: z.string(),
  row: ms,
  seat: z.string(),
  persona: z.string(),
  alias: z.string().nullable(),
  nativeId: z.string().nullable(),
  type: z.string().nullable(),
  label: z.string(),
  background: z.boolean().nullable(),
  startedAt: ms,
}) satisfies z.ZodType<PastJob>;
/** The transitions that change what the world draws (needs-you, launches, replies and usage change nothing drawn). */
const WorldTransitionSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('seat'), at: ms, seat: z.string(), persona: z.string(), opened: z.boolean(), harness: HarnessSchema.nullable(), address: SeatAddressSchema.nullable() }) satisfies z.ZodType<SeatTransition>,
  z.object({
    t: z.literal('activity'),
    at: ms,
    seat: z.string(),
    persona: z.string(),
    state: ActivityStateSchema,
    why: NeedsWhySchema.nullable(),
    certain: z.boolean(),
    label: z.string().nullable(),
    since: ms.nullable(),
  }) satisfies z.ZodType<ActivityTransition>,
  z.object({
    t: z.literal('persona'),
    at: ms,
    persona: z.string(),
    removed: z.boolean(),
    name: z.string().nullable(),
    role: z.string().nullable(),
    previousRole: z.string().nullable(),
    roleChanged: z.boolean(),
    appearance: AppearanceSchema.nullable(),
    createdAt: z.string().nullable(),
  }) satisfies z.ZodType<PersonaTransition>,
  z.object({
    t: z.literal('job'),
    at: ms,
    row: ms,
    seat: z.string(),
    persona: z.string(),
    ended: z.boolean(),
    key: z.string(),
    alias: z.string().nullable(),
    nativeId: z.string().nullable(),
    type: z.string().nullable(),
    label: z.string(),
    background: z.boolean().nullable(),
    outcome: OutcomeSchema.nullable(),
  }) satisfies z.ZodType<JobTransition>,
]);
const figure = z.number().nullable();
const UsageSampleSchema = z.object({ at: ms, id: ms, input: figure, output: figure, cacheRead: figure, cacheWrite: figure, costUsd: figure, contextUsed: figure, contextFill: figure }) satisfies z.ZodType<UsageSample>;

const PastWorldSchema = z.object({ at: ms, seats: z.array(PastSeatSchema), personas: z.array(PastPersonaSchema), jobs: z.array(PastJobSchema) });

/**
 * A window of recent history the page folds itself, so a press on the timeline inside it is answered at once: the
 * world at `from` (ms), the whole-world snapshots the host took in `(from, until]` and the world's transitions there,
 * oldest first, and the usage samples of its seats (each seat's latest at or before `from`, then every one up to
 * `until`, oldest first). A moment is folded as the host seeks it — from the newest world at or before it, the
 * transitions after that applied — so any moment in `[from, until]` equals `history.at`'s answer. Null without a
 * history store or anything recorded.
 */
export const HistoryWindowSchema = z
  .object({
    from: ms,
    until: ms,
    base: PastWorldSchema,
    /** At most one every five minutes (HISTORY_SNAPSHOT_EVERY_MS), and one where the oldest rows were pruned. */
    snapshots: z.array(PastWorldSchema).max(HISTORY_WINDOW_ROWS),
    transitions: z.array(WorldTransitionSchema).max(HISTORY_WINDOW_ROWS),
    usage: z.array(z.object({ seat: z.string(), samples: z.array(UsageSampleSchema).max(HISTORY_WINDOW_ROWS + 1) })),
  })
  .nullable();
export type HistoryWindow = z.infer<typeof HistoryWindowSchema>;

/** What a digest entry tells. */
export const DigestKindSchema = z.enum(['waiting', 'waited', 'turn-done', 'job-ended', 'launch', 'error']);
export type DigestKind = z.infer<typeof DigestKindSchema>;

/**
 * One line of "While you were away". `personaId` is the agent the entry centres on. `waitedMs` for waiting/waited
 * (still waiting: until now); `count` for turns finished (one entry per agent); `alias`, `type`, `outcome` for jobs.
 */
export const DigestEntrySchema = z.object({
  kind: DigestKindSchema,
  personaId: z.string(),
  seatId: z.string().nullable(),
  /** The agent's name then. */
  name: z.string(),
  role: z.string().nullable(),
  /** When it happened (waits: when the wait began; turns: the last one). */
  at: z.string(),
  why: NeedsWhySchema.optional(),
  waitedMs: z.number().int().nonnegative().optional(),
  count: z.number().int().positive().optional(),
  alias: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  label: z.string().optional(),
  outcome: OutcomeSchema.optional(),
  harness: HarnessSchema.optional(),
});
export type DigestEntry = z.infer<typeof DigestEntrySchema>;

/**
 * The away digest since a moment: still waiting first (longest first), then waited (longest first), turns finished,
 * jobs ended, launches, errors (each newest first). Empty `entries`: nothing happened (the panel is not shown).
 */
/** What the whole digest counts, listed or not: waits for the owner, turns finished, jobs ended, launches, errors. */
export const DigestTotalsSchema = z.object({
  waits: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  jobs: z.number().int().nonnegative(),
  launches: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
});
export type DigestTotals = z.infer<typeof DigestTotalsSchema>;

export const HistoryDigestSchema = z.object({
  since: z.string(),
  until: z.string(),
  entries: z.array(DigestEntrySchema).max(DIGEST_ENTRIES_MAX),
  /** Entries left out past the bound. */
  more: z.number().int().nonnegative(),
  /** The totals over every entry, the listed and the `more` (an older host sends none: its listed entries are counted). */
  totals: DigestTotalsSchema.optional(),
});
export type HistoryDigest = z.infer<typeof HistoryDigestSchema>;

/** The totals of a digest's entries (a turn-done entry counts its turns), so a heading never counts only those listed. */
export function digestTotals(entries: readonly DigestEntry[]): DigestTotals {
  const totals: DigestTotals = { waits: 0, turns: 0, jobs: 0, launches: 0, errors: 0 };
  for (const entry of entries) {
    if (entry.kind === 'waiting' || entry.kind === 'waited') totals.waits += 1;
    else if (entry.kind === 'turn-done') totals.turns += entry.count ?? 1;
    else if (entry.kind === 'job-ended') totals.jobs += 1;
    else if (entry.kind === 'launch') totals.launches += 1;
    else totals.errors += 1;
  }
  return totals;
}

/** What the CLI's `--kind` selects. */
export const HistoryFilterKindSchema = z.enum(['needs-you', 'jobs', 'roles', 'activity']);
export type HistoryFilterKind = z.infer<typeof HistoryFilterKindSchema>;

const eventBase = {
  at: z.string(),
  seatId: z.string().nullable(),
  personaId: z.string().nullable(),
  /** The remote the agent runs on (issue 42); absent for this machine's agents. */
  host: z.string().optional(),
};

/** One recorded transition, as `pixelfleet history --json` lists it (oldest first). */
export const HistoryEventSchema = z.discriminatedUnion('type', [
  z.object({ ...eventBase, type: z.literal('seat.opened'), harness: HarnessSchema, sessionId: z.string() }),
  z.object({ ...eventBase, type: z.literal('seat.closed') }),
  z.object({
    ...eventBase,
    type: z.literal('activity'),
    state: z.enum(['working', 'needs-you', 'idle', 'unknown']),
    why: NeedsWhySchema.nullable(),
    certain: z.boolean(),
    label: z.string().nullable(),
  }),
  z.object({ ...eventBase, type: z.literal('needs-you.entered'), why: NeedsWhySchema, certain: z.boolean() }),
  z.object({ ...eventBase, type: z.literal('needs-you.left'), why: NeedsWhySchema, waitedMs: z.number().int().nonnegative() }),
  z.object({ ...eventBase, type: z.literal('role'), name: z.string(), role: z.string().nullable(), previous: z.string().nullable() }),
  z.object({
    ...eventBase,
    type: z.literal('job.started'),
    alias: z.string().nullable(),
    nativeId: z.string().nullable(),
    jobType: z.string().nullable(),
    label: z.string(),
    /** null: the harness recorded nothing that tells (issue 38). */
    background: z.boolean().nullable(),
    /** The parent agent's persona (the job's seat holder). */
    parent: z.string(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('job.ended'),
    alias: z.string().nullable(),
    nativeId: z.string().nullable(),
    jobType: z.string().nullable(),
    label: z.string(),
    background: z.boolean().nullable(),
    parent: z.string(),
    outcome: OutcomeSchema.nullable(),
  }),
  /** A reply was sent to the agent's terminal (issue 39): who and when, never what. */
  z.object({ ...eventBase, type: z.literal('reply.sent') }),
  z.object({ ...eventBase, type: z.literal('launch'), harness: HarnessSchema, name: z.string(), role: z.string().nullable() }),
  z.object({
    ...eventBase,
    type: z.literal('usage'),
    input: z.number().int().nonnegative(),
    output: z.number().int().nonnegative(),
    cacheRead: z.number().int().nonnegative(),
    cacheWrite: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative().nullable(),
    contextFill: z.number().nonnegative().nullable(),
  }),
]);
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

/** `pixelfleet history --json`: the window listed and its transitions, oldest first. */
export const HistoryListSchema = z.object({
  since: z.string(),
  until: z.string(),
  events: z.array(HistoryEventSchema).max(HISTORY_LIST_MAX),
  /** Transitions left out past the bound (the oldest are kept). */
  more: z.number().int().nonnegative(),
});
export type HistoryList = z.infer<typeof HistoryListSchema>;
