/**
 * Domain records shared by main and renderer. Every type is inferred from its zod schema.
 * Schemas here are tolerant (z.object drops unknown keys); strict request schemas live in contract.ts.
 */
import { z } from 'zod';
import { FleetUsageSchema, SubagentUsageSchema, UsageSchema } from './usage';
import { DriftSchema } from './drift';

/** The harnesses Pixelfleet reads. */
export const HarnessSchema = z.enum(['claude', 'codex', 'opencode']);
export type Harness = z.infer<typeof HarnessSchema>;

/**
 * The address of one harness session (a seat): which harness, its home folder, the session id and, when known,
 * the working folder and the transcript path. For OpenCode, `home` is the database file.
 */
export const SeatAddressSchema = z.object({
  harness: HarnessSchema,
  home: z.string().min(1),
  sessionId: z.string().min(1),
  cwd: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
});
export type SeatAddress = z.infer<typeof SeatAddressSchema>;

/** How a subagent ended. `idle` is an estimate (no write for five minutes). */
export const OutcomeSchema = z.enum(['completed', 'failed', 'interrupted', 'stopped', 'idle', 'unknown']);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** One native subagent of a seat: labels, ids and times only, never prompt text. */
export const SubagentEntrySchema = z.object({
  nativeId: z.string().nullable(),
  label: z.string(),
  kind: z.string().nullable(),
  /** Whether the parent went on while it ran; null when the harness records nothing that tells (issue 38). */
  background: z.boolean().nullable(),
  state: z.enum(['running', 'ended']),
  outcome: OutcomeSchema.optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  /** True when endedAt is an estimate (Codex idleness). */
  endedAtEstimated: z.boolean().optional(),
  replayable: z.boolean(),
  /** Why the entry cannot be replayed yet (or at all), as a sentence saying what the owner can expect. */
  replayNote: z.string().optional(),
  /** The subagent's own token totals; absent means unknown (issue 26). */
  usage: SubagentUsageSchema.optional(),
});
export type SubagentEntry = z.infer<typeof SubagentEntrySchema>;

/**
 * The running count (every running call) and the eight most recent entries, newest first. `earlier` lists ended
 * subagents found on disk from before the read window (at most 64, newest first); they never change `running`.
 */
export const SubagentSummarySchema = z.object({
  running: z.number().int().nonnegative(),
  recent: z.array(SubagentEntrySchema).max(8),
  earlier: z.array(SubagentEntrySchema).max(64).optional(),
});
export type SubagentSummary = z.infer<typeof SubagentSummarySchema>;

/** Longest file path a tool target carries, in characters (a longer one is dropped, never cut). */
export const TOOL_TARGET_PATH_MAX = 1024;

/** The file a tool call acts on: its path (never the file's content) and what the call does with it. */
export const ToolTargetSchema = z.object({
  path: z.string().min(1).max(TOOL_TARGET_PATH_MAX),
  action: z.enum(['read', 'edit', 'write', 'search']),
});
export type ToolTarget = z.infer<typeof ToolTargetSchema>;

/** One normalised line of a replayed child transcript. Text is capped at 4 KiB. */
export const ReplayEntrySchema = z.object({
  at: z.string().nullable(),
  role: z.enum(['user', 'assistant', 'tool', 'note']),
  text: z.string(),
  tool: z.string().optional(),
  /** On a tool call that reads, edits, writes or searches files: their paths (a patch may touch several). */
  targets: z.array(ToolTargetSchema).max(16).optional(),
});
export type ReplayEntry = z.infer<typeof ReplayEntrySchema>;

/** A page of a replay (entries oldest first within the page) or the reason it cannot be shown. */
export const ReplayPageSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    running: z.boolean(),
    entries: z.array(ReplayEntrySchema),
    nextCursor: z.string().nullable(),
  }),
  z.object({ status: z.literal('unavailable'), reason: z.string() }),
]);
export type ReplayPage = z.infer<typeof ReplayPageSchema>;

/** Cosmetic look of a persona; never used for placement. Each field indexes a palette or sprite part. */
export const AppearanceSchema = z.object({
  body: z.number().int().min(0).max(3),
  hair: z.number().int().min(0).max(7),
  palette: z.number().int().min(0).max(7),
  accessory: z.number().int().min(0).max(5),
});
export type Appearance = z.infer<typeof AppearanceSchema>;

/** An agent in the world: a character bound to a seat and carrying an optional role. */
export const PersonaSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  appearance: AppearanceSchema,
  role: z.string().optional(),
  seat: SeatAddressSchema.optional(),
  /** The remote host (its name in `remote list`) this persona lives on; absent means this machine. */
  host: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Persona = z.infer<typeof PersonaSchema>;

/** A role with how many personas hold it, in `roles.list` order. */
export const RoleCountSchema = z.object({
  role: z.string(),
  builtIn: z.boolean(),
  count: z.number().int().nonnegative(),
});
export type RoleCount = z.infer<typeof RoleCountSchema>;

/** A work item from a Markdown folder, GitHub or Linear. */
export const WorkItemSchema = z.object({
  source: z.enum(['markdown', 'github', 'linear']),
  id: z.string(),
  title: z.string(),
  labels: z.array(z.string()),
  status: z.string().nullable(),
  url: z.string(),
});
export type WorkItem = z.infer<typeof WorkItemSchema>;

/** A source that failed, with a sentence for the owner. */
export const SourceErrorSchema = z.object({ source: z.string(), message: z.string() });
export type SourceError = z.infer<typeof SourceErrorSchema>;

/** A session the owner could open: found from paths, sizes and times (and a header line), never content. */
export const CandidateSchema = z.object({
  id: z.string(),
  harness: HarnessSchema,
  seat: SeatAddressSchema,
  cwdHint: z.string().nullable(),
  lastActivity: z.string(),
  size: z.number().nonnegative(),
  opened: z.boolean().optional(),
  /** The name of the persona holding the session, when it is opened. */
  openedBy: z.string().optional(),
  /** The remote host the session is on; absent means this machine. */
  host: z.string().optional(),
});
export type Candidate = z.infer<typeof CandidateSchema>;

/** What a seat is doing, from its own records: working, waiting for the owner, idle, or not known. */
export const ActivityStateSchema = z.enum(['working', 'needs-you', 'idle', 'unknown']);

/** Why a seat needs the owner (present exactly when the state is `needs-you`). */
export const NeedsWhySchema = z.enum(['question', 'plan', 'approval', 'turn-done', 'interrupted', 'error']);
export type NeedsWhy = z.infer<typeof NeedsWhySchema>;

/** Longest activity label, in characters (a label, never content). */
export const ACTIVITY_LABEL_MAX = 80;

/**
 * A seat's activity. `certain` is false when a heuristic (elapsed time) decided the state; `since` is the record's
 * own time the state began (null when not known); `label` names the tool and its target, never prompt text.
 */
export const ActivitySchema = z
  .object({
    state: ActivityStateSchema,
    why: NeedsWhySchema.optional(),
    certain: z.boolean(),
    since: z.string().nullable(),
    label: z.string().max(ACTIVITY_LABEL_MAX).optional(),
  })
  .refine((activity) => (activity.state === 'needs-you') === (activity.why !== undefined), {
    message: 'why is present exactly when the state is needs-you',
    path: ['why'],
  });
export type Activity = z.infer<typeof ActivitySchema>;

/** A seat in the fleet snapshot. `subagents` absent means unknown (shown as "?"), never zero. */
export const SeatSchema = z.object({
  id: z.string(),
  harness: HarnessSchema,
  personaId: z.string(),
  address: SeatAddressSchema,
  activity: ActivitySchema,
  subagents: SubagentSummarySchema.optional(),
  /** Context fill and token totals from the seat's own records; absent means unknown (issue 26). */
  usage: UsageSchema.optional(),
  unknownReason: z.string().optional(),
  /** The remote host the seat is on (its address resolves there); absent means this machine. */
  host: z.string().optional(),
  /** Set while the seat's host cannot be reached: the instant it became unreachable (ISO); the seat is its last known state. */
  unreachableSince: z.string().optional(),
  /** Record kinds and fields its reader does not know, by name (issue 29); absent means none were seen. */
  drift: DriftSchema.optional(),
});
export type Seat = z.infer<typeof SeatSchema>;

/** A station: a role with its holders count and its backlog. */
export const StationSchema = z.object({
  role: z.string(),
  builtIn: z.boolean(),
  count: z.number().int().nonnegative(),
  backlog: z.object({ items: z.array(WorkItemSchema), error: z.string().optional() }),
});
export type Station = z.infer<typeof StationSchema>;

/** A message for the owner (a corrupt store moved aside, a bad setting). */
export const NoticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});
export type Notice = z.infer<typeof NoticeSchema>;

/** The id prefix of the notice a remote host shows while it cannot be reached (`remote-unreachable:<host>`). */
export const UNREACHABLE_NOTICE_PREFIX = 'remote-unreachable:';

/** The longest message summary shown on an envelope, in characters. */
export const MESSAGE_SUMMARY_MAX = 60;

/** A member of an agent team; `state` comes from the member's own journal when its session is a seat, else unknown. */
export const TeamMemberSchema = z.object({
  name: z.string(),
  agentId: z.string(),
  lead: z.boolean(),
  colour: z.string().nullable(),
  seatId: z.string().nullable(),
  personaId: z.string().nullable(),
  state: ActivitySchema,
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;

/** A message between two agents, as labels only: who, to whom, when, and a summary if it carries one; never the body. */
export const AgentMessageSchema = z.object({
  id: z.string(),
  /** The team it passed in, or null for a message between sessions outside a team. */
  team: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  at: z.string(),
  summary: z.string().max(MESSAGE_SUMMARY_MAX).nullable(),
  fromPersonaId: z.string().nullable(),
  toPersonaId: z.string().nullable(),
});
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

/** An agent team touching an addressed seat: members and its 50 most recent messages (oldest first). */
export const TeamSchema = z.object({
  name: z.string(),
  leadPersonaId: z.string().nullable(),
  members: z.array(TeamMemberSchema),
  messages: z.array(AgentMessageSchema).max(50),
  /** Sentences about what could not be read or rests on unverified file shapes. */
  notes: z.array(z.string()),
});
export type Team = z.infer<typeof TeamSchema>;

/** Everything the world draws, with a monotonically increasing change cursor. */
export const FleetSnapshotSchema = z.object({
  cursor: z.number().int().nonnegative(),
  seats: z.array(SeatSchema),
  personas: z.array(PersonaSchema),
  stations: z.array(StationSchema),
  notices: z.array(NoticeSchema).optional(),
  /** Agent teams that lead or hold an addressed seat; absent when there are none. */
  teams: z.array(TeamSchema).optional(),
  /** Messages between sessions the owner opened, outside team inboxes (the 50 most recent); absent when none. */
  messages: z.array(AgentMessageSchema).max(50).optional(),
  /** The owner's home folder, so panels can show working folders as `~/…`. */
  ownerHome: z.string().optional(),
  /** The fleet HUD's usage line; absent when no seat has usage (issue 26). */
  usage: FleetUsageSchema.optional(),
});
export type FleetSnapshot = z.infer<typeof FleetSnapshotSchema>;
