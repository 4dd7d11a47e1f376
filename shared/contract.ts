/**
 * The one IPC contract between main and renderer. Each channel maps to a strict request schema (unknown keys are
 * errors) and a response schema; events (main → renderer) have schemas too. Both transports — Electron IPC and
 * the browser-mode WebSocket — speak exactly this.
 */
import { z } from 'zod';
import {
  CandidateSchema,
  FleetSnapshotSchema,
  NeedsWhySchema,
  PersonaSchema,
  ReplayPageSchema,
  RoleCountSchema,
  SeatAddressSchema,
  SeatSchema,
  SourceErrorSchema,
  WorkItemSchema,
} from './schemas';
import { JobBoardSchema } from './jobs';
import { UsageReportSchema, UsageSinceSchema } from './usageReport';
import { BlockReportSchema, PaceSchema, UsageByReportSchema, UsageByRequestSchema } from './pace';
import { FleetPatchSchema, JobsPatchSchema } from './updates';
import { boundedString, cursorString, idString, nameString, pathString, roleString, shownValue } from './bounds';
import { AttachInfoSchema, LaunchOptionsSchema, LaunchRequestSchema, LaunchResultSchema } from './launch';
import { PROFILE_CHARTER_MAX, RoleProfileSchema } from './roleProfile';
import { terminalChannels, terminalEvents } from './terminal';
import { dispatchChannels, dispatchEvents } from './dispatch';
import { HISTORY_BUCKETS_MAX, HistoryDigestSchema, HistoryMomentSchema, HistorySpanSchema, HistoryWindowSchema, isoInstant } from './history';

/** The contract's version: bumped when a change breaks older peers; a remote host speaking another one is refused. */
export const CONTRACT_VERSION = 2;

const empty = z.object({}).strict();
const personaId = idString();
/**
 * A seat address as a request field: strict, so a typo is refused instead of ignored, and every string bounded. Only
 * the harness and the session id are used; the service resolves the rest under the configured homes.
 */
const seatAddressRequest = SeatAddressSchema.extend({
  home: pathString(1),
  sessionId: idString(),
  cwd: pathString().nullable().optional(),
  path: pathString().nullable().optional(),
}).strict();

/** Longest text field of a profile a request may carry before the profile rules judge it, in characters. */
const PROFILE_FIELD_MAX_LENGTH = 1000;
const profileText = (what: string) => boundedString(what, PROFILE_FIELD_MAX_LENGTH);
const toolList = z.array(boundedString('a tool name', 32)).max(16);

/**
 * A profile as the panel sends it: the shape strict and every string bounded, the values not yet judged. The service
 * checks it with the profile rules and answers field by field, so each problem is shown beside its field.
 */
const profileRequest = z
  .object({
    description: profileText('a description'),
    charter: boundedString('a charter', PROFILE_CHARTER_MAX),
    tools: z.object({ allow: toolList.optional(), deny: toolList.optional() }).strict().optional(),
    models: z
      .object({ claude: profileText('a model name').optional(), opencode: profileText('a model name').optional(), codex: profileText('a model name').optional() })
      .strict()
      .optional(),
    colour: profileText('a colour').optional(),
  })
  .strict();

/** A role's profile as main reads it: the owner's file, the built-in default or none, and why a file is not used. */
export const RoleProfileViewSchema = z.object({
  role: z.string(),
  path: z.string(),
  source: z.enum(['file', 'default', 'none']),
  profile: RoleProfileSchema.nullable(),
  problem: z.string().nullable(),
});
export type RoleProfileView = z.infer<typeof RoleProfileViewSchema>;

/** The harnesses and scopes an export writes for. */
export const ExportHarnessSchema = z.enum(['claude', 'opencode', 'codex']);
export const ExportScopeSchema = z.enum(['project', 'user']);

/**
 * An export's outcome: written, unchanged or previewed (with the file's text and what was there before), or refused
 * with its code (`refused`: a foreign or edited file, which `force` replaces; `undetermined`: Codex's format unknown).
 */
export const RoleExportResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    action: z.enum(['written', 'unchanged', 'preview']),
    path: z.string(),
    name: z.string(),
    text: z.string(),
    existing: z.enum(['missing', 'foreign', 'edited', 'ours']),
  }),
  z.object({
    ok: z.literal(false),
    code: z.enum(['invalid_role', 'no_profile', 'refused', 'undetermined']),
    reason: z.string(),
    path: z.string().nullable(),
  }),
]);
export type RoleExportResult = z.infer<typeof RoleExportResultSchema>;

/** Longest link the page may ask the system browser to open, in characters. */
const EXTERNAL_URL_MAX_LENGTH = 2048;

/** Every channel: request (strict) and response (read tolerantly by the renderer). */
export const channels = {
  'app.info': {
    request: empty,
    response: z.object({
      name: z.string(),
      version: z.string(),
      mode: z.enum(['electron', 'web']),
      demo: z.boolean(),
      paths: z.object({ home: z.string(), personas: z.string(), settings: z.string() }),
      /** The command that started this app (`npm start`, `npm run web`, `pixelfleet web`) and the same with the demo. */
      start: z.object({ command: z.string(), demo: z.string() }).optional(),
      /** Each harness's home found on this machine (what `remote test` reports of a remote). */
      harnesses: z.object({ claude: z.boolean(), codex: z.boolean(), opencode: z.boolean() }).optional(),
      /** Whether tmux runs on this machine. */
      tmux: z.boolean().optional(),
    }),
  },
  'fleet.read': {
    request: z.object({ fresh: z.boolean().optional() }).strict(),
    response: FleetSnapshotSchema,
  },
  'fleet.candidates': {
    request: z.object({ refresh: z.boolean().optional() }).strict(),
    response: z.array(CandidateSchema),
  },
  /** The lobby: the sessions found here and on each remote, and each remote that could not list its own, with why (issue 38). */
  'fleet.lobby': {
    request: z.object({ refresh: z.boolean().optional() }).strict(),
    response: z.object({ candidates: z.array(CandidateSchema), unreachable: z.array(z.object({ host: z.string(), reason: z.string() })).max(256) }),
  },
  'seats.open': {
    request: z
      .object({ candidateId: idString(), name: nameString().optional(), role: roleString().optional() })
      .strict(),
    response: z.object({ seat: SeatSchema, persona: PersonaSchema }),
  },
  'seats.close': {
    request: z.object({ seatId: idString() }).strict(),
    response: z.object({ closed: z.boolean() }),
  },
  'agents.hire': {
    request: z
      .object({
        name: nameString().optional(),
        role: roleString().nullable().optional(),
        seat: seatAddressRequest.optional(),
      })
      .strict(),
    response: PersonaSchema,
  },
  'personas.list': { request: empty, response: z.array(PersonaSchema) },
  'personas.setRole': {
    request: z.object({ personaId, role: roleString().nullable() }).strict(),
    response: PersonaSchema,
  },
  'personas.moveSeat': {
    request: z.object({ personaId, seat: seatAddressRequest.nullable() }).strict(),
    response: PersonaSchema,
  },
  'personas.rename': {
    request: z.object({ personaId, name: nameString() }).strict(),
    response: PersonaSchema,
  },
  'roles.list': { request: empty, response: z.array(RoleCountSchema) },
  /** A role's profile (the owner's file, else the built-in default), with why a file is not used. */
  'roles.profile': {
    request: z.object({ role: roleString(1) }).strict(),
    response: RoleProfileViewSchema,
  },
  /** Checks a profile with the profile rules and writes it atomically; or the problems, field by field, and no write. */
  'roles.saveProfile': {
    request: z.object({ role: roleString(1), profile: profileRequest }).strict(),
    response: z.discriminatedUnion('saved', [
      z.object({ saved: z.literal(true), view: RoleProfileViewSchema }),
      z.object({ saved: z.literal(false), errors: z.array(z.object({ field: z.string(), message: z.string() })).min(1) }),
    ]),
  },
  /**
   * Renders a role's profile as a harness's agent definition and writes it (or, with dryRun, only shows it). Project
   * scope needs `dir`, an absolute folder; user scope writes under the harness's own config folder.
   */
  'roles.export': {
    request: z
      .object({
        role: roleString(1),
        harness: ExportHarnessSchema,
        scope: ExportScopeSchema,
        dir: pathString(1).optional(),
        dryRun: z.boolean(),
        force: z.boolean(),
      })
      .strict(),
    response: RoleExportResultSchema,
  },
  'work.items': {
    request: z.object({ label: roleString(1), refresh: z.boolean().optional() }).strict(),
    response: z.object({ items: z.array(WorkItemSchema), errors: z.array(SourceErrorSchema) }),
  },
  /** Asks every work source for fresh items now; the result reaches the stations with the next snapshot. */
  'work.refresh': {
    request: empty,
    response: z.object({ changed: z.boolean() }),
  },
  'subagents.replay': {
    request: z
      .object({ seat: idString(), nativeId: idString(), cursor: cursorString().optional() })
      .strict(),
    response: ReplayPageSchema,
  },
  'jobs.list': {
    request: z.object({ all: z.boolean().optional() }).strict(),
    response: JobBoardSchema,
  },
  /** Tokens, context and cost per seat and in total, whole sessions or since a window's start (issue 26). */
  'usage.read': {
    request: z.object({ since: UsageSinceSchema.optional() }).strict(),
    response: UsageReportSchema,
  },
  /** 5-hour blocks of Claude usage, an estimate: over the fleet's seats, or every journal in the Claude home (issue 41). */
  'usage.blocks': {
    request: z.object({ allSessions: z.boolean().optional() }).strict(),
    response: BlockReportSchema,
  },
  /** Spend by day, role, harness or host from the history's usage samples (issue 41). */
  'usage.by': {
    request: UsageByRequestSchema,
    response: UsageByReportSchema,
  },
  /** The pace panel: plan windows, the active block, cost by role today and over 7 days, the budget settings. */
  'usage.pace': {
    request: empty,
    response: PaceSchema,
  },
  /** Test clock only (PIXELFLEET_TEST_CLOCK=1): moves main's jobs clock forward; refused otherwise. */
  'test.advanceClock': {
    request: z.object({ ms: z.number().int().min(0).max(7 * 24 * 3_600_000) }).strict(),
    response: z.object({ offsetMs: z.number() }),
  },
  /** What a launch can offer now: tmux, each harness on PATH (or why not), recent folders and a name to start from. */
  'launch.options': {
    request: empty,
    response: LaunchOptionsSchema,
  },
  /** Hire a persona with the role and start its harness in a new tmux session; seated when the session appears. */
  'agents.launch': {
    request: LaunchRequestSchema,
    response: LaunchResultSchema,
  },
  /** How to attach to a persona's tmux session (null when none runs), and whether a terminal can open attached. */
  'agents.attach': {
    request: z.object({ personaId }).strict(),
    response: AttachInfoSchema,
  },
  /** Opens the configured terminal attached to a persona's tmux session. */
  'agents.openTerminal': {
    request: z.object({ personaId }).strict(),
    response: z.object({ opened: z.boolean(), reason: z.string().nullable() }),
  },
  /** The retained history for the timeline bar: needs-you spans and job counts per bucket (issue 27). */
  'history.span': {
    request: z.object({ buckets: z.number().int().min(1).max(HISTORY_BUCKETS_MAX).optional() }).strict(),
    response: HistorySpanSchema,
  },
  /** The world as it was at `at` (ISO), drawn like a fleet snapshot; read-only. */
  'history.at': {
    request: z.object({ at: isoInstant() }).strict(),
    response: HistoryMomentSchema,
  },
  /** Recent history for the page to fold itself (at most the last half hour, HISTORY_WINDOW_ROWS rows); null when none. */
  'history.window': {
    request: z.object({}).strict(),
    response: HistoryWindowSchema,
  },
  /** "While you were away": what happened since `since` (ISO), still waiting first. */
  'history.digest': {
    request: z.object({ since: isoInstant() }).strict(),
    response: HistoryDigestSchema,
  },
  'shell.openExternal': {
    request: z.object({ url: boundedString('a link', EXTERNAL_URL_MAX_LENGTH) }).strict(),
    response: z.object({ opened: z.boolean() }),
  },
  /** A persona's terminal: locate, peek, send, keys, act, watch, unwatch (shared/terminal.ts, issue 39). */
  ...terminalChannels,
  /** Backlog items given to agents (shared/dispatch.ts, issue 40). */
  ...dispatchChannels,
} as const;

/** What a job notification is about: a long background job's reminder, or its end after a reminder. */
export const JobNoteSchema = z.object({
  /** Unique per reminder or finish (a repeat of the same id is dropped). */
  id: z.string(),
  kind: z.enum(['job-reminder', 'job-finished']),
  alias: z.string().nullable(),
  nativeId: z.string().nullable(),
});

/**
 * A notification main decided on; the page shows it in browser mode. Either a seat that needs the owner (`why`, with
 * the agent's name and project) or a job's reminder or finish (`job`, naming the parent agent) — exactly one of them.
 */
export const NotificationSchema = z
  .object({
    seatId: z.string(),
    personaId: z.string(),
    title: z.string(),
    body: z.string(),
    why: NeedsWhySchema.optional(),
    job: JobNoteSchema.optional(),
    /** A budget warning (issue 41): a context near auto-compact, or a plan window near or projected past its end. */
    budget: z.object({ kind: z.enum(['context', 'window']), key: z.string() }).optional(),
    certain: z.boolean(),
    /** Play the short chime (settings.json `notify.sound`). */
    sound: z.boolean(),
  })
  .refine((note) => [note.why, note.job, note.budget].filter((part) => part !== undefined).length === 1, {
    message: 'a notification carries exactly one of why (needs-you), job (a reminder) and budget (a budget warning)',
    path: ['why'],
  });
export type Notification = z.infer<typeof NotificationSchema>;

/** Events pushed from main to the renderer. */
export const events = {
  /** A whole snapshot: the first after start, or when a change cannot be expressed as changes. */
  'fleet.changed': z.object({ snapshot: FleetSnapshotSchema }),
  /** What changed since the snapshot whose cursor is `patch.from` (see shared/updates.ts). */
  'fleet.patched': z.object({ patch: FleetPatchSchema }),
  /** A seat entered needs-you for a reason that notifies, or a background job reminded or finished. */
  'notify.show': NotificationSchema,
  /** Focus an agent and open its tray (a desktop notification was clicked). */
  'agent.focus': z.object({ personaId: z.string() }),
  /** A whole jobs board: the first after start, or when a change cannot be expressed as changes. */
  'jobs.changed': z.object({ board: JobBoardSchema }),
  /** What changed since the board whose revision is `patch.from`. */
  'jobs.patched': z.object({ patch: JobsPatchSchema }),
  /** A persona's terminal: output of a watched pane, its end, and that a reply was sent (shared/terminal.ts). */
  ...terminalEvents,
  ...dispatchEvents,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type EventName = keyof typeof events;
export type RequestOf<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ResponseOf<C extends ChannelName> = z.infer<Channels[C]['response']>;
export type EventOf<E extends EventName> = z.infer<(typeof events)[E]>;

/**
 * Every error code that crosses the boundary (Electron IPC, the WebSocket, the CLI), with what it tells the caller.
 * The message beside it is for the owner; the code is for programs.
 */
export const ERROR_CODES = {
  invalid_request: 'the request breaks the contract or a rule (shape, length, seat, name); nothing changed',
  invalid_role: 'the role breaks the role rules; nothing changed',
  not_found: 'no persona, seat, session or subagent has that id',
  refused: 'the reader refused the request (a replay outside the seat, a forged cursor)',
  unavailable: 'the service cannot do it now (the store is unreadable or read-only, a harness is missing); try again later',
  unknown_channel: 'no such channel in the contract',
  invalid_message: 'a WebSocket message that is not { id, channel, payload }',
  forbidden: 'the sender may not talk to Pixelfleet (a foreign frame or origin)',
  invalid_response: 'a bug in main: its answer broke the contract (logged)',
  invalid_event: 'a bug in main: an event broke the contract (logged, not sent)',
  internal: 'an unexpected failure in main (logged)',
  unreachable: 'the remote host holding that agent cannot be reached now (or speaks another contract version); nothing changed',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error crossing the boundary. Read tolerantly (a newer main may add codes, a transport adds its own, such as
 * `disconnected`); main sends only the codes listed above. */
export const ErrorSchema = z.object({ code: z.string(), message: z.string() });
export type ContractError = z.infer<typeof ErrorSchema>;

/** The answer envelope every transport uses. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: ContractError };

/** The list of channel names, for allowlists (preload, host). */
export const channelNames = Object.keys(channels) as ChannelName[];
/** The list of event names. */
export const eventNames = Object.keys(events) as EventName[];

/** True when `name` is a channel of the contract. */
export function isChannel(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}

/** True when `name` is an event of the contract. */
export function isEvent(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

/** A one-line description of a zod failure that names the field: `personaId: expected string, received number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : '(request)';
      if (issue.code === 'unrecognized_keys') {
        // Key names come from the client: a few of them, each shown at most 80 characters long.
        const keys = issue.keys.slice(0, 3).map((key) => shownValue([...issue.path, key].join('.')));
        return `${keys.join(', ')}${issue.keys.length > 3 ? ` (and ${issue.keys.length - 3} more)` : ''}: unknown field`;
      }
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** Validates a request strictly; the error names the field. */
export function parseRequest<C extends ChannelName>(
  channel: C,
  payload: unknown,
): { ok: true; value: z.infer<Channels[C]['request']> } | { ok: false; error: ContractError } {
  const result = channels[channel].request.safeParse(payload ?? {});
  if (result.success) return { ok: true, value: result.data as z.infer<Channels[C]['request']> };
  return { ok: false, error: { code: 'invalid_request', message: `${channel}: ${describeIssues(result.error)}` } };
}

/** Validates a response before it leaves main (a failure is a bug in main, reported as `internal`). */
export function parseResponse<C extends ChannelName>(
  channel: C,
  payload: unknown,
): { ok: true; value: ResponseOf<C> } | { ok: false; error: ContractError } {
  const result = channels[channel].response.safeParse(payload);
  if (result.success) return { ok: true, value: result.data as ResponseOf<C> };
  return { ok: false, error: { code: 'invalid_response', message: `${channel} response: ${describeIssues(result.error)}` } };
}

/** Validates an event payload (tolerant: unknown optional fields dropped, known fields checked). */
export function parseEvent<E extends EventName>(
  name: E,
  payload: unknown,
): { ok: true; value: EventOf<E> } | { ok: false; error: ContractError } {
  const result = events[name].safeParse(payload);
  if (result.success) return { ok: true, value: result.data as EventOf<E> };
  return { ok: false, error: { code: 'invalid_event', message: `${name}: ${describeIssues(result.error)}` } };
}
