/**
 * Dispatch across the contract (issue 40): a backlog item given to an agent — a new one hired and launched with the
 * item's prompt (optionally in its own git worktree), or one already running, through its terminal. What was
 * dispatched to whom is the app's own record; the owner's backlog files and trackers are read, never written. Schemas
 * only; the service lives in main/core/dispatch.
 */
import { z } from 'zod';
import { boundedString, idString, nameString, pathString, roleString } from './bounds';
import { LAUNCH_PROMPT_MAX, LaunchRequestSchema, LaunchResultSchema } from './launch';
import { HarnessSchema, WorkItemSchema } from './schemas';

/** Seconds between two reads of a worktree's changed files (never on the frame path). */
export const DISPATCH_CHANGES_EVERY_MS = 10_000;

/** The remembered dispatch of an item, as `work-items --json` shows it beside each item. */
export const ItemDispatchSchema = z.object({
  personaId: z.string(),
  /** The persona's name now (its name at dispatch time when it has since left). */
  persona: z.string(),
  at: z.string(),
  branch: z.string().nullable(),
  worktree: z.string().nullable(),
});
/** An item's dispatch. */
export type ItemDispatch = z.infer<typeof ItemDispatchSchema>;

/** One active dispatch as the world shows it: on the backlog card ("→ Ada") and on the agent's card. */
export const DispatchViewSchema = ItemDispatchSchema.extend({
  itemId: z.string(),
  source: WorkItemSchema.shape.source,
  title: z.string(),
  /** `git status --porcelain` lines of the worktree, read at most every 10 s; null: unknown (no worktree, not read yet, git failed). */
  changedFiles: z.number().int().nonnegative().nullable(),
});
/** An active dispatch, for the page. */
export type DispatchView = z.infer<typeof DispatchViewSchema>;

/** A dispatch as the owner asks for it: to a new agent (`role`, `harness`, optional `name`) or to one that runs (`personaId`; a `harness` given must be the one it runs). */
export const DispatchRequestSchema = z
  .object({
    itemId: idString(),
    source: WorkItemSchema.shape.source.optional(),
    harness: HarnessSchema.optional(),
    role: roleString(1).optional(),
    name: nameString().optional(),
    personaId: idString().optional(),
    cwd: pathString(1),
    worktree: z.boolean().optional(),
    /** The prompt as the owner edited it in the launch dialog; absent: built from the item. */
    prompt: boundedString('a prompt', LAUNCH_PROMPT_MAX, 1).optional(),
    /** The remote it runs on (issue 42; `cwd` is then a folder there); absent: this machine, or a remote persona's own host. */
    host: LaunchRequestSchema.shape.host,
  })
  .strict()
  .refine((request) => (request.role === undefined) !== (request.personaId === undefined), {
    message: 'give either role (a new agent) or personaId (an agent that runs)',
    path: ['role'],
  })
  .refine((request) => request.personaId === undefined || request.name === undefined, {
    message: 'name is for a new agent, not with personaId',
    path: ['name'],
  })
  .refine((request) => request.role === undefined || request.harness !== undefined, { message: 'a new agent needs a harness', path: ['harness'] });
/** A dispatch request. */
export type DispatchRequest = z.infer<typeof DispatchRequestSchema>;

/** What a dispatch did; `launch` is the launch's outcome for a new agent, null for a send to a running one. */
export const DispatchResultSchema = z.object({
  personaId: z.string(),
  persona: z.string(),
  itemId: z.string(),
  cwd: z.string(),
  branch: z.string().nullable(),
  worktree: z.string().nullable(),
  launch: LaunchResultSchema.nullable(),
});
/** A dispatch's outcome. */
export type DispatchResult = z.infer<typeof DispatchResultSchema>;

/** Most characters of an item title carried to a remote (it names the worktree's branch there). */
const ITEM_TITLE_MAX = 2_000;

/**
 * A dispatch carried out on this machine for an item its host looked up (issue 42, `--host`): the item by id and title
 * only, the prompt already built; the worktree, the launch or the send happen here, the record stays with the host.
 */
export const DispatchHereRequestSchema = z
  .object({
    item: z.object({ id: idString(), title: boundedString('an item title', ITEM_TITLE_MAX) }).strict(),
    harness: HarnessSchema.optional(),
    role: roleString(1).optional(),
    name: nameString().optional(),
    personaId: idString().optional(),
    cwd: pathString(1),
    worktree: z.boolean().optional(),
    prompt: boundedString('a prompt', LAUNCH_PROMPT_MAX, 1),
    /** Set by the host that asks; the routing takes it off before the remote sees the request. */
    host: LaunchRequestSchema.shape.host,
  })
  .strict()
  .refine((request) => (request.role === undefined) !== (request.personaId === undefined), { message: 'give either role or personaId', path: ['role'] })
  .refine((request) => request.role === undefined || request.harness !== undefined, { message: 'a new agent needs a harness', path: ['harness'] });
/** A dispatch carried out here for another host. */
export type DispatchHereRequest = z.infer<typeof DispatchHereRequestSchema>;

/** What a dispatch carried out here did (the item's id stays with the host that asked). */
export const DispatchHereResultSchema = DispatchResultSchema.omit({ itemId: true });
/** The outcome of a dispatch carried out here. */
export type DispatchHereResult = z.infer<typeof DispatchHereResultSchema>;

const itemRef = z.object({ itemId: idString(), source: WorkItemSchema.shape.source.optional() }).strict();

/** The dispatch channels, spread into the contract. */
export const dispatchChannels = {
  /** Gives a backlog item to a new agent (hire and launch) or to one that runs (through its terminal). */
  'work.dispatch': { request: DispatchRequestSchema, response: DispatchResultSchema },
  /** Carries out, on this machine, a dispatch another host looked up (its worktree, launch or send); records nothing. */
  'work.dispatchHere': { request: DispatchHereRequestSchema, response: DispatchHereResultSchema },
  /** The prompt a dispatch of the item would give: title, link, and a Markdown item's body (≤ 8 KiB). */
  'work.dispatchPrompt': { request: itemRef, response: z.object({ prompt: z.string() }) },
  /** Every active dispatch, for the backlog cards and the agents' cards. */
  'work.dispatches': { request: z.object({}).strict(), response: z.object({ dispatches: z.array(DispatchViewSchema) }) },
  /** Forgets an item's dispatch (the agent and any worktree stay). */
  'work.undispatch': { request: itemRef, response: z.object({ cleared: z.boolean() }) },
  /** Marks a dispatched item done; with `removeWorktree`, removes its worktree when it is clean. */
  'work.done': {
    request: itemRef.extend({ removeWorktree: z.boolean().optional() }).strict(),
    response: z.object({ itemId: z.string(), worktreeRemoved: z.boolean() }),
  },
} as const;

/** The dispatch events, spread into the contract's events. */
export const dispatchEvents = {
  /** The active dispatches changed (a dispatch, an undispatch, a done, or a worktree's changed-file count). */
  'work.dispatched': z.object({ dispatches: z.array(DispatchViewSchema) }),
} as const;
