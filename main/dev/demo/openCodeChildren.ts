/**
 * A demo OpenCode seat with native subagents, written as OpenCode 1.x records them (../shared/formats/opencode.md
 * §5–8) through the demo store's writable connection: `task` tool parts in the parent's assistant message, a child
 * session per call (`parent_id` set, same directory) with its own messages and parts, foreground parts settled when
 * the child ends, background launches settled by a later synthetic `<task id state>` message that opens a turn. Its
 * turns end every way the OpenCode rules read: finished, failed with an API error, aborted by the owner.
 */
import type { OpenCodeStore } from './openCodeStore';
import type { Random } from './random';
import { SeatScript, type ChildPlan, type SeatEvent, type SeatStyle } from './seatScript';
import { openCodeStepFields } from './usageRecords';

/** OpenCode records no question or approval (it keeps them in memory), so its seats end turns in the other ways. */
export const OPENCODE_STYLE: SeatStyle = {
  waits: ['turn-done', 'error', 'turn-done', 'interrupted'],
  foreground: [
    ['completed', 0.75],
    ['failed', 0.12],
    ['interrupted', 0.13],
  ],
  background: [
    ['completed', 0.7],
    ['failed', 0.15],
    ['stopped', 0.15],
  ],
  resultsOpenTurn: true,
};

/** OpenCode's built-in subagents. */
const AGENTS = ['explore', 'general'] as const;
const MODEL = { modelID: 'demo-model', providerID: 'demo' } as const;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The error OpenCode records on a message the owner stopped. */
const ABORTED = { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } };
/** The error OpenCode records on a message whose provider call failed. */
const API_ERROR = { name: 'APIError', data: { message: 'Overloaded', statusCode: 529, isRetryable: true } };

interface OpenCodeChild {
  sessionId: string;
  callId: string;
  /** The parent's `task` part of this call. */
  partId: string;
  /** The child's open assistant message and its data. */
  message: string;
  data: Record<string, unknown>;
  startMs: number;
  /** The usage its assistant message has recorded so far (tokens and cost summed over finished steps), or null. */
  usage: Record<string, unknown> | null;
}

type Json = Record<string, unknown>;

/** The `<task id state>` envelope OpenCode writes into task outputs and background results. */
export function taskEnvelope(childId: string, state: 'running' | 'completed' | 'error' | 'cancelled', summary: string | null, body: string): string {
  const tag = state === 'error' ? 'task_error' : 'task_result';
  return `<task id="${childId}" state="${state}">\n${summary ? `<summary>${summary}</summary>\n` : ''}<${tag}>\n${body}\n</${tag}>\n</task>`;
}

/** A demo OpenCode seat: a top-level session of the demo store, its child sessions and its script. */
export class OpenCodeActor {
  private readonly script: SeatScript;
  private readonly children = new Map<number, OpenCodeChild>();

  constructor(
    private readonly store: OpenCodeStore,
    readonly sessionId: string,
    private readonly directory: string,
    private readonly random: Random,
    index: number,
  ) {
    this.script = new SeatScript(OPENCODE_STYLE, random, index, AGENTS);
  }

  /** Writes one step at `atMs`, each event in one transaction. */
  advance(atMs: number): void {
    for (const event of this.script.step(atMs)) this.apply(event, atMs);
  }

  private transaction(write: () => void, atMs: number): void {
    const { database } = this.store;
    database.exec('BEGIN');
    try {
      write();
      database.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(atMs, this.sessionId);
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  }

  private updateJson(table: 'message' | 'part', id: string, data: Json, atMs: number): void {
    this.store.database.prepare(`UPDATE ${table} SET data = ?, time_updated = ? WHERE id = ?`).run(JSON.stringify(data), atMs, id);
  }

  private readPart(id: string): Json | null {
    const row = this.store.database.prepare('SELECT data FROM part WHERE id = ?').get(id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Json) : null;
  }

  private apply(event: SeatEvent, atMs: number): void {
    switch (event.kind) {
      case 'prompt':
        return this.store.write(this.sessionId, { kind: 'prompt', text: event.text }, atMs);
      case 'tool':
        return this.store.write(this.sessionId, { kind: 'tool', command: event.command, note: event.note }, atMs);
      case 'results-turn':
        return this.transaction(() => this.resultsTurn(event.children, atMs), atMs);
      case 'spawn':
        return this.transaction(() => {
          this.store.finishTool(this.sessionId, atMs);
          const open = this.store.open.get(this.sessionId);
          if (!open) return;
          const count = event.children.length;
          this.store.addPart(open.message, this.sessionId, atMs, { type: 'text', text: count > 1 ? `Handing ${count} parts of this to subagents.` : 'Handing this to a subagent.' });
          for (const child of event.children) this.spawn(open.message, child, atMs);
        }, atMs);
      case 'child-step':
        return this.transaction(() => this.childStep(event.child, event.command, event.note, atMs), atMs);
      case 'child-end':
        return this.transaction(() => this.childEnd(event.child, atMs), atMs);
      case 'await':
        if (event.ended.length > 0) this.transaction(() => event.ended.forEach((child) => this.settleForeground(child, atMs)), atMs);
        return;
      case 'report':
      case 'ask':
      case 'answer':
        return; // Not in OpenCode's style: results open a turn, and questions and approvals are not recorded.
      case 'end':
        if (event.wait === 'turn-done') return this.store.write(this.sessionId, { kind: 'end', note: event.note }, atMs);
        return this.transaction(() => this.endWithError(event.wait === 'interrupted', atMs), atMs);
      default:
        return event satisfies never;
    }
  }

  /** Background results reach the parent as one synthetic user message, and the parent's answer starts. */
  private resultsTurn(children: ChildPlan[], atMs: number): void {
    this.store.finishTool(this.sessionId, atMs);
    const user = this.store.addMessage(this.sessionId, atMs, { role: 'user', time: { created: atMs }, agent: 'build', model: MODEL });
    for (const child of children) {
      const known = this.children.get(child.number);
      if (!known) continue;
      const state = child.ending === 'completed' ? 'completed' : child.ending === 'failed' ? 'error' : 'cancelled';
      const summary = `Background task ${state === 'error' ? 'failed' : state}: ${child.description}`;
      const body = state === 'completed' ? child.report : state === 'error' ? 'The subagent stopped with an error.' : 'The task was cancelled.';
      this.store.addPart(user, this.sessionId, atMs, { type: 'text', text: taskEnvelope(known.sessionId, state, summary, body), synthetic: true });
    }
    const data = { role: 'assistant', time: { created: atMs }, parentID: user, ...MODEL, mode: 'build', agent: 'build' };
    this.store.open.set(this.sessionId, { message: this.store.addMessage(this.sessionId, atMs, data), data, tool: null });
  }

  private callId(): string {
    let id = 'toolu_01';
    for (let index = 0; index < 22; index += 1) id += BASE62[Math.floor(this.random() * BASE62.length)];
    return id;
  }

  /** A child session with its prompt, and the parent's `task` part naming it. */
  private spawn(parentMessage: string, child: ChildPlan, atMs: number): void {
    const { database } = this.store;
    const sessionId = this.store.nextId('ses', atMs);
    const name = this.directory.split('/').pop() ?? 'demo';
    database
      .prepare('INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(sessionId, `prj_${name}`, this.sessionId, `${name}-${child.number}`, this.directory, `${child.description} (@${child.role} subagent)`, '1.15.13', atMs, atMs);
    const user = this.store.addMessage(sessionId, atMs, { role: 'user', time: { created: atMs }, agent: child.role, model: MODEL, tools: { todowrite: false, task: false } });
    this.store.addPart(user, sessionId, atMs, { type: 'text', text: child.prompt });
    const data = { role: 'assistant', time: { created: atMs }, parentID: user, ...MODEL, mode: child.role, agent: child.role, path: { cwd: this.directory, root: this.directory } };
    const message = this.store.addMessage(sessionId, atMs, data);
    const callId = this.callId();
    const input: Json = { description: child.description, prompt: child.prompt, subagent_type: child.role };
    const metadata: Json = { parentSessionId: this.sessionId, sessionId, model: MODEL };
    const state: Json = child.background
      ? {
          status: 'completed',
          input: { ...input, background: true },
          output: taskEnvelope(sessionId, 'running', 'Background task started', 'Background task started. You will be told when it ends.'),
          title: child.description,
          metadata: { ...metadata, background: true, jobId: sessionId },
          time: { start: atMs, end: atMs },
        }
      : { status: 'running', input, title: child.description, metadata, time: { start: atMs } };
    const partId = this.store.addPart(parentMessage, this.sessionId, atMs, { type: 'tool', callID: callId, tool: 'task', state });
    this.children.set(child.number, { sessionId, callId, partId, message, data, startMs: atMs, usage: null });
  }

  private childStep(child: ChildPlan, command: string | null, note: string, atMs: number): void {
    const known = this.children.get(child.number);
    if (!known) return;
    this.store.addPart(known.message, known.sessionId, atMs, { type: 'text', text: note });
    if (command) {
      this.store.addPart(known.message, known.sessionId, atMs, {
        type: 'tool',
        callID: this.callId(),
        tool: 'bash',
        state: { status: 'completed', input: { command, description: note }, output: 'exit 0', title: command, metadata: {}, time: { start: atMs, end: atMs } },
      });
      // A step finished: its tokens and cost are summed into the child's assistant message, as OpenCode records them.
      known.usage = openCodeStepFields(known.sessionId, known.usage);
      this.updateJson('message', known.message, { ...known.data, ...known.usage }, atMs);
    }
    this.store.database.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(atMs, known.sessionId);
  }

  /** The child's own last message: finished, failed with an API error, or aborted. */
  private childEnd(child: ChildPlan, atMs: number): void {
    const known = this.children.get(child.number);
    if (!known) return;
    const time = { created: known.startMs, completed: atMs };
    if (child.ending === 'completed') {
      // The last step (the report) finishes too: its usage is summed in.
      known.usage = openCodeStepFields(known.sessionId, known.usage);
      this.store.addPart(known.message, known.sessionId, atMs, { type: 'text', text: child.report });
      this.updateJson('message', known.message, { ...known.data, ...known.usage, time, finish: 'stop' }, atMs);
    } else this.updateJson('message', known.message, { ...known.data, ...(known.usage ?? {}), time, error: child.ending === 'failed' ? API_ERROR : ABORTED }, atMs);
    this.store.database.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(atMs, known.sessionId);
  }

  /** The parent's `task` part once its foreground child ended: completed with the report, or an error. */
  private settleForeground(child: ChildPlan, atMs: number): void {
    const known = this.children.get(child.number);
    const part = known ? this.readPart(known.partId) : null;
    if (!known || !part) return;
    const state = part.state as Json;
    const time = { start: known.startMs, end: atMs };
    let settled: Json;
    if (child.ending === 'completed') settled = { ...state, status: 'completed', output: taskEnvelope(known.sessionId, 'completed', null, child.report), time };
    else if (child.ending === 'interrupted') settled = { ...state, status: 'error', error: 'Tool execution aborted', metadata: { ...(state.metadata as Json), interrupted: true }, time };
    else settled = { ...state, status: 'error', error: 'Tool execution failed: the subagent stopped before finishing.', time };
    this.updateJson('part', known.partId, { ...part, state: settled }, atMs);
  }

  /** Ends the open turn with an error on its message: an API error, or the owner's abort (running tools aborted too). */
  private endWithError(aborted: boolean, atMs: number): void {
    const open = this.store.open.get(this.sessionId);
    if (!open) return;
    if (aborted) abortRunningParts(this.store, open.message, atMs);
    else this.store.finishTool(this.sessionId, atMs);
    open.tool = null;
    const created = (open.data.time as { created: number }).created;
    this.updateJson('message', open.message, { ...open.data, time: { created, completed: atMs }, error: aborted ? ABORTED : API_ERROR }, atMs);
    this.store.open.delete(this.sessionId);
  }
}

/** Marks every pending or running tool part of a message aborted, as OpenCode does when the owner stops a turn. */
function abortRunningParts(store: OpenCodeStore, messageId: string, atMs: number): void {
  const rows = store.database
    .prepare("SELECT id, data FROM part WHERE message_id = ? AND json_extract(data, '$.state.status') IN ('pending', 'running')")
    .all(messageId) as { id: string; data: string }[];
  for (const row of rows) abortPart(store, row, atMs);
}

/** One tool part set to an aborted error, keeping its metadata (with `interrupted`, as OpenCode 1.x records it). */
export function abortPart(store: OpenCodeStore, row: { id: string; data: string }, atMs: number): void {
  const data = JSON.parse(row.data) as Json;
  const state = (data.state ?? {}) as Json;
  const start = ((state.time as Json | undefined)?.start as number | undefined) ?? atMs;
  const aborted = { ...state, status: 'error', error: 'Tool execution aborted', metadata: { ...((state.metadata as Json | undefined) ?? {}), interrupted: true }, time: { start, end: atMs } };
  store.database.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify({ ...data, state: aborted }), atMs, row.id);
}
