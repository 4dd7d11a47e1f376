/**
 * A demo Codex seat with native subagents, written as Codex records them (../shared/formats/codex.md §4–8): the
 * parent's `spawn_agent` calls, a child rollout per subagent in the same date tree whose `session_meta` names the
 * parent thread, and the parent's own records settling each child — `wait_agent` status maps for foreground helpers,
 * `<subagent_notification>` messages and `close_agent` for background ones. Its turns end every way the Codex rules
 * read: task_complete, a pending `request_user_input`, a pending escalated command, and aborted turns.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CodexSeat, codexThreadId, rolloutName } from './codexSeat';
import { createIdMaker, type IdMaker, type Random } from './random';
import { SeatScript, type ChildPlan, type SeatEvent, type SeatStyle } from './seatScript';
import { codexUsageLines } from './usageRecords';
import { closeCodexLeftovers, readCodexLeftovers } from './codexResume';

/** Codex seats wait in every way the Codex rules record; background helpers may also be stopped or run out of budget. */
export const CODEX_STYLE: SeatStyle = {
  waits: ['question', 'turn-done', 'approval', 'interrupted', 'turn-done', 'error'],
  foreground: [
    ['completed', 0.85],
    ['failed', 0.15],
  ],
  background: [
    ['completed', 0.6],
    ['failed', 0.14],
    ['interrupted', 0.13],
    ['stopped', 0.13],
  ],
  resultsOpenTurn: false,
};

/** Nicknames Codex gives spawned agents (its built-in list starts with these). */
const NICKNAMES = ['Euclid', 'Archimedes', 'Ptolemy', 'Hypatia', 'Noether', 'Kepler', 'Gauss', 'Lovelace'] as const;
/** Codex's built-in agent roles. */
const ROLES = ['explorer', 'worker', 'default'] as const;
const CLI_VERSION = '0.121.0';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** One rollout line. */
export function codexLine(atMs: number, type: string, payload: Record<string, unknown>): string {
  return `${JSON.stringify({ timestamp: new Date(atMs).toISOString(), type, payload })}\n`;
}

const message = (atMs: number, role: 'user' | 'assistant', text: string) =>
  codexLine(atMs, 'response_item', { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] });
const call = (atMs: number, name: string, args: Record<string, unknown>, callId: string) =>
  codexLine(atMs, 'response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId });
const output = (atMs: number, callId: string, text: string) => codexLine(atMs, 'response_item', { type: 'function_call_output', call_id: callId, output: text });

/** The user message Codex records when a turn is interrupted (2026-04 text). */
export const TURN_ABORTED_TEXT = '<turn_aborted>\nThe user interrupted the previous turn on purpose. Any running unified exec processes may still be running in the background. If any tools/commands were aborted, they may have partially executed; verify current state before retrying.\n</turn_aborted>';

/** The `<subagent_notification>` a v1 parent records when a child reaches a status. */
export function subagentNotification(atMs: number, childId: string, status: unknown): string {
  return message(atMs, 'user', `<subagent_notification>\n${JSON.stringify({ agent_path: childId, status })}\n</subagent_notification>`);
}

/** The AgentStatus a parent records for a child's ending. */
function statusOf(child: ChildPlan): unknown {
  switch (child.ending) {
    case 'completed':
      return { completed: child.report };
    case 'failed':
      return { errored: 'stream disconnected before completion' };
    case 'interrupted':
      return 'interrupted';
    case 'stopped':
      return 'shutdown';
    default:
      return child.ending satisfies never;
  }
}

interface CodexChild {
  id: string;
  path: string;
}

/** A demo Codex seat: its parent rollout (through `CodexSeat`), its children's rollouts and its script. */
export class CodexActor {
  private readonly script: SeatScript;
  private readonly children = new Map<number, CodexChild>();
  private readonly ids: IdMaker;
  private turn = 0;
  private waitCall: { id: string; ticks: number } | null = null;
  private askCall: string | null = null;
  private parentLines: string[] = [];
  private childLines = new Map<string, string[]>();

  private constructor(
    private readonly seat: CodexSeat,
    private readonly home: string,
    private readonly random: Random,
    index: number,
    /** True when a previous run wrote this rollout (the seat continues it, with no back-dated warm-up). */
    readonly resumed: boolean,
  ) {
    this.ids = createIdMaker(random);
    this.script = new SeatScript(CODEX_STYLE, random, index * 2, ROLES);
  }

  /**
   * Opens the seat's rollout; one a previous run left gets its open turn aborted and its unsettled children shut
   * down first, and the seat's draws are salted with the rollout's size so new ids never repeat old ones.
   */
  static async open(options: { home: string; id: string; cwd: string; createdMs: number; atMs: number; index: number; random: (salt: number) => Random }): Promise<CodexActor> {
    const seat = await CodexSeat.open(options.home, options.id, options.cwd, options.createdMs);
    const leftovers = await readCodexLeftovers(seat.path);
    const lines = closeCodexLeftovers(leftovers, options.atMs);
    if (lines.length > 0) await fs.appendFile(seat.path, lines.join(''));
    return new CodexActor(seat, options.home, leftovers.resumed ? options.random(leftovers.bytes) : options.random(0), options.index, leftovers.resumed);
  }

  /** The parent rollout. */
  get path(): string {
    return this.seat.path;
  }

  /** Writes one step at `atMs`. */
  async advance(atMs: number): Promise<void> {
    for (const event of this.script.step(atMs)) await this.apply(event, atMs);
    await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.parentLines.length > 0) await fs.appendFile(this.seat.path, this.parentLines.splice(0).join(''));
    const children = [...this.childLines];
    this.childLines = new Map();
    for (const [file, lines] of children) await fs.appendFile(file, lines.join(''));
  }

  private callId(): string {
    let id = 'call_';
    for (let index = 0; index < 22; index += 1) id += BASE62[Math.floor(this.random() * BASE62.length)];
    return id;
  }

  private toChild(child: ChildPlan, lines: string[]): void {
    const known = this.children.get(child.number);
    if (!known) return;
    const list = this.childLines.get(known.path);
    if (list) list.push(...lines);
    else this.childLines.set(known.path, [...lines]);
  }

  private async apply(event: SeatEvent, atMs: number): Promise<void> {
    const parent = this.parentLines;
    switch (event.kind) {
      case 'prompt':
        this.turn += 1;
        await this.flush();
        return this.seat.write({ kind: 'prompt', text: event.text }, atMs);
      case 'results-turn':
        return; // Codex records results in the running turn; its style never opens a turn for them.
      case 'tool':
        await this.flush();
        return this.seat.write({ kind: 'tool', command: event.command, note: event.note }, atMs);
      case 'spawn': {
        const count = event.children.length;
        const background = event.children[0]?.background ?? false;
        parent.push(message(atMs, 'assistant', count > 1 ? `Spawning ${count} helpers and waiting for them.` : background ? 'Starting a helper in the background.' : 'Asking a helper and waiting for it.'));
        for (const child of event.children) await this.spawn(child, atMs);
        if (!background) {
          this.waitCall = { id: this.callId(), ticks: 0 };
          parent.push(call(atMs, 'wait_agent', { targets: event.children.map((child) => this.children.get(child.number)?.id), timeout_ms: 30_000 }, this.waitCall.id));
        }
        return;
      }
      case 'child-step': {
        const lines = [message(atMs, 'assistant', event.note)];
        const childId = this.children.get(event.child.number)?.id;
        // After each model response the child's own rollout records a token_count, as its parent's does (format §7).
        if (childId) lines.push(...codexUsageLines(childId, { kind: 'tool' }, atMs));
        if (event.command) {
          const id = this.callId();
          lines.push(call(atMs, 'exec_command', { cmd: event.command, workdir: this.seat.cwd }, id), output(atMs, id, 'Process exited with code 0'));
        }
        this.toChild(event.child, lines);
        return;
      }
      case 'child-end':
        this.toChild(event.child, this.childEnding(event.child, atMs));
        return;
      case 'await':
        this.awaitStep(event.ended, event.pending, atMs);
        return;
      case 'report':
        for (const child of event.children) {
          const id = this.children.get(child.number)?.id;
          if (!id) continue;
          if (child.ending === 'stopped') {
            const closeId = this.callId();
            parent.push(call(atMs, 'close_agent', { target: id }, closeId), output(atMs, closeId, JSON.stringify({ previous_status: 'running' })));
          } else parent.push(subagentNotification(atMs, id, statusOf(child)));
        }
        return;
      case 'ask':
        this.askCall = this.callId();
        if (event.wait === 'question') {
          const question = { id: 'approach', header: 'Approach', question: 'Which approach should I take?', options: [{ label: 'Small fix', description: 'Patch the one call site' }, { label: 'Refactor', description: 'Move the logic into a helper' }] };
          parent.push(call(atMs, 'request_user_input', { questions: [question] }, this.askCall));
        } else {
          parent.push(message(atMs, 'assistant', `I need to run ${event.command} outside the sandbox.`));
          parent.push(call(atMs, 'exec_command', { cmd: event.command, workdir: this.seat.cwd, sandbox_permissions: 'require_escalated', justification: 'It writes outside the workspace.' }, this.askCall));
        }
        return;
      case 'answer':
        if (this.askCall) parent.push(output(atMs, this.askCall, event.wait === 'question' ? JSON.stringify({ answers: { approach: { answers: ['Small fix'] } } }) : 'Process exited with code 0'));
        this.askCall = null;
        return;
      case 'end':
        if (event.wait === 'turn-done') {
          await this.flush();
          return this.seat.write({ kind: 'end', note: event.note }, atMs);
        }
        if (event.wait === 'interrupted') parent.push(message(atMs, 'user', TURN_ABORTED_TEXT));
        parent.push(codexLine(atMs, 'event_msg', { type: 'turn_aborted', turn_id: `turn-${this.turn}`, reason: event.wait === 'interrupted' ? 'interrupted' : 'budget_limited' }));
        return;
      default:
        return event satisfies never;
    }
  }

  /** A `spawn_agent` call and its output in the parent, and the child's rollout with its header and first turn. */
  private async spawn(child: ChildPlan, atMs: number): Promise<void> {
    const id = codexThreadId(this.ids.uuid());
    const nickname = NICKNAMES[(child.number - 1) % NICKNAMES.length];
    const spawnId = this.callId();
    this.parentLines.push(
      call(atMs, 'spawn_agent', { message: child.prompt, agent_type: child.role }, spawnId),
      output(atMs, spawnId, JSON.stringify({ agent_id: id, nickname })),
    );
    const { day, name } = rolloutName(id, atMs);
    const folder = path.join(this.home, 'sessions', ...day);
    await fs.mkdir(folder, { recursive: true });
    const file = path.join(folder, name);
    this.children.set(child.number, { id, path: file });
    const at = new Date(atMs).toISOString();
    const spawn = { parent_thread_id: this.seat.id, depth: 1, agent_path: null, agent_nickname: nickname, agent_role: child.role };
    this.toChild(child, [
      codexLine(atMs, 'session_meta', { id, timestamp: at, cwd: this.seat.cwd, originator: 'codex_cli_rs', cli_version: CLI_VERSION, source: { subagent: { thread_spawn: spawn } }, agent_nickname: nickname, agent_role: child.role }),
      codexLine(atMs, 'turn_context', { turn_id: 'turn-1', cwd: this.seat.cwd, approval_policy: 'never', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5.1-codex', summary: 'auto' }),
      codexLine(atMs, 'event_msg', { type: 'task_started', turn_id: 'turn-1' }),
      message(atMs, 'user', child.prompt),
      codexLine(atMs, 'event_msg', { type: 'user_message', message: child.prompt }),
    ]);
  }

  /** What the child's own rollout shows at its end (a failed child's rollout just stops, format §8). */
  private childEnding(child: ChildPlan, atMs: number): string[] {
    switch (child.ending) {
      case 'completed': {
        const id = this.children.get(child.number)?.id;
        return [message(atMs, 'assistant', child.report), ...(id ? codexUsageLines(id, { kind: 'end' }, atMs) : []), codexLine(atMs, 'event_msg', { type: 'task_complete', turn_id: 'turn-1', last_agent_message: child.report })];
      }
      case 'failed':
        return [];
      case 'interrupted':
        return [codexLine(atMs, 'event_msg', { type: 'turn_aborted', turn_id: 'turn-1', reason: 'budget_limited' })];
      case 'stopped':
        return [message(atMs, 'user', TURN_ABORTED_TEXT), codexLine(atMs, 'event_msg', { type: 'turn_aborted', turn_id: 'turn-1', reason: 'interrupted' })];
      default:
        return child.ending satisfies never;
    }
  }

  /**
   * The parent's wait on its foreground helpers: `wait_agent` returns as soon as one target ends (with the status of
   * every target that has), or times out; the parent waits again while any target still runs (format §5).
   */
  private awaitStep(ended: ChildPlan[], pending: ChildPlan[], atMs: number): void {
    const wait = this.waitCall;
    if (!wait) return;
    wait.ticks += 1;
    if (ended.length === 0 && wait.ticks < 2) return;
    const status = Object.fromEntries(ended.flatMap((child) => {
      const id = this.children.get(child.number)?.id;
      return id ? [[id, statusOf(child)]] : [];
    }));
    this.parentLines.push(output(atMs, wait.id, JSON.stringify({ status, timed_out: ended.length === 0 })));
    this.waitCall = null;
    if (pending.length === 0) return;
    this.waitCall = { id: this.callId(), ticks: 0 };
    this.parentLines.push(call(atMs, 'wait_agent', { targets: pending.map((child) => this.children.get(child.number)?.id), timeout_ms: 30_000 }, this.waitCall.id));
  }
}
