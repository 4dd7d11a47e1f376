/**
 * One simulated Claude Code session as a step machine: each `step` writes what the session did next (a prompt,
 * prose, a tool call, a fan-out of foreground subagents, a background launch, a notification, or nothing).
 * Pure apart from its PRNG; the demo runner owns the files and the timers.
 */
import { SimulatedChild } from './child';
import {
  agentCompleted,
  agentFailed,
  agentLaunched,
  agentProgressLine,
  apiErrorLine,
  assistantLine,
  escapeCwd,
  compactBoundaryLine,
  interruptLine,
  taskNotificationLine,
  toolResultLine,
  turnDurationLine,
  userPromptLine,
  type AssistantBlock,
  type JournalContext,
  type ToolOutcome,
} from './lines';
import type { OpenCall } from './resume';
import { AGENT_LABELS, ASSISTANT_LINES, COMMANDS, FILES, SUBAGENT_TYPES, USER_PROMPTS } from './prose';
import { chance, pick, randomInt, type IdMaker, type Random } from './random';
import type { ClaudeUsageRecord, DemoUsage } from './usageRecords';

/** What one step wrote: lines for the main journal, lines per child journal, and new child sidecars. */
export interface StepOutput {
  main: string[];
  children: { agentId: string; lines: string[] }[];
  sidecars: { agentId: string; json: string }[];
}

/** What a session stops to wait for the owner on: each is one of the reasons the needs-you queue knows. */
export type DemoWait = 'turn-done' | 'question' | 'plan' | 'approval' | 'interrupted' | 'error';

/**
 * The waits of each seat of a demo fleet, by seat index (cycling): the lead only works, the others between them show
 * every reason the queue knows, so a first run has a few agents waiting for the owner at any time.
 */
const WAIT_ROTATION: readonly (readonly DemoWait[])[] = [
  [],
  ['question', 'turn-done'],
  ['approval'],
  ['turn-done'],
  ['plan', 'turn-done'],
  ['error', 'interrupted'],
  ['turn-done'],
  [],
];

/** The waits the seat at `index` takes, in turn. */
export function demoWaits(index: number): readonly DemoWait[] {
  return WAIT_ROTATION[index % WAIT_ROTATION.length];
}

/** Steps a wait lasts before the owner answers; at a step every 0.5–3 s it outlasts the 10 s approval rule. */
const WAIT_STEPS: readonly [number, number] = [14, 30];
/** Steps of work between two waits (the first wait comes early, so a first run shows the queue at once). */
const WORK_STEPS: readonly [number, number] = [12, 30];
const FIRST_WORK_STEPS: readonly [number, number] = [2, 4];

/** A wait in progress: steps left, and what the session writes once the owner has answered. */
interface Waiting {
  steps: number;
  answer: (nowMs: number, stamp: () => string, out: StepOutput) => void;
}

/** Past this many bytes of main journal a session mostly rests, so an hour stays within a few MiB. */
const RESTFUL_BYTES = 4 * 1024 * 1024;

/** The simulation of one session's main journal and its subagents. */
export class SimulatedSession {
  readonly context: JournalContext;
  /** Bytes of main-journal lines produced so far. */
  mainBytes = 0;
  private lastUuid: string | null = null;
  private promptId = '';
  private started = false;
  private quietSteps = 0;
  private foreground: SimulatedChild[] = [];
  private background: SimulatedChild[] = [];
  private notifications: SimulatedChild[] = [];
  private readonly waits: readonly DemoWait[];
  private waitIndex = 0;
  private workSteps = 0;
  private waiting: Waiting | null = null;
  private turnStartMs = 0;
  /** The seat's usage records (issue 26); null keeps the fixed figures the bench journal and older tests expect. */
  private readonly usage: DemoUsage | null;

  constructor(
    identity: { sessionId: string; cwd: string; slug: string; waits?: readonly DemoWait[]; usage?: DemoUsage },
    private readonly random: Random,
    private readonly ids: IdMaker,
  ) {
    this.context = { sessionId: identity.sessionId, cwd: identity.cwd, slug: identity.slug };
    this.waits = identity.waits ?? [];
    this.usage = identity.usage ?? null;
    // Seats that never wait draw nothing extra, so their content stays what their seed always gave.
    if (this.waits.length > 0) this.workSteps = randomInt(random, ...FIRST_WORK_STEPS);
  }

  /** Subagents started and not yet reported to the parent. */
  get openChildren(): number {
    return this.foreground.length + this.background.length + this.notifications.length;
  }

  /** Advances one step at `nowMs`; line timestamps are `nowMs` plus a millisecond per line, so order is kept. */
  step(nowMs: number): StepOutput {
    let offset = 0;
    const stamp = () => new Date(nowMs + offset++).toISOString();
    const out: StepOutput = { main: [], children: [], sidecars: [] };
    for (const child of [...this.foreground, ...this.background]) {
      const lines = child.advance(stamp);
      if (lines.length === 0) continue;
      out.children.push({ agentId: child.spawn.agentId, lines });
      const { mirrored, toolUseId, agentId } = child.spawn;
      if (mirrored) out.main.push(agentProgressLine(this.context, this.next(stamp), toolUseId, agentId));
    }
    const finished = this.background.filter((child) => child.done);
    this.background = this.background.filter((child) => !child.done);
    this.notifications.push(...finished);
    this.mainStep(nowMs, stamp, out);
    for (const line of out.main) this.mainBytes += Buffer.byteLength(line);
    return out;
  }

  /**
   * Closes calls a previous run left open in this journal (a restart): foreground Agent calls and every other tool
   * (a question, a plan, a command awaiting approval) get an interrupted error result, background Agent calls a
   * `killed` notification.
   */
  resume(open: OpenCall[], nowMs: number): StepOutput {
    let offset = 0;
    const stamp = () => new Date(nowMs + offset++).toISOString();
    const out: StepOutput = { main: [], children: [], sidecars: [] };
    for (const call of open) {
      if (call.agentId === null) {
        const outcome = agentFailed('[Request interrupted by user for tool use]');
        out.main.push(toolResultLine(this.context, this.next(stamp, call.callUuid || this.lastUuid), call.toolUseId, outcome));
        continue;
      }
      const note = { agentId: call.agentId, toolUseId: call.toolUseId, description: call.description, status: 'killed' as const, result: 'Stopped when the demo restarted.' };
      out.main.push(taskNotificationLine(this.context, this.next(stamp), { ...note, usage: { totalTokens: 0, toolUses: 0, durationMs: 1 } }));
    }
    for (const line of out.main) this.mainBytes += Buffer.byteLength(line);
    return out;
  }

  private mainStep(nowMs: number, stamp: () => string, out: StepOutput): void {
    if (!this.started) {
      this.started = true;
      this.prompt(nowMs, stamp, out);
      return;
    }
    if (this.foreground.length > 0) {
      // The parent is blocked on its foreground calls; their results land together once all children are done.
      if (this.foreground.every((child) => child.done)) this.reportForeground(nowMs, stamp, out);
      return;
    }
    if (this.waiting) {
      // Nothing reaches the main thread while the owner is away (notifications queue up), so the wait stays visible.
      this.waiting.steps -= 1;
      if (this.waiting.steps > 0) return;
      const { answer } = this.waiting;
      this.waiting = null;
      this.workSteps = randomInt(this.random, ...WORK_STEPS);
      answer(nowMs, stamp, out);
      return;
    }
    if (this.notifications.length > 0) {
      for (const child of this.notifications) this.notify(child, nowMs, stamp, out);
      this.notifications = [];
      return;
    }
    const compacted = this.usage?.takeCompaction() ?? null;
    if (compacted !== null) return this.compact(stamp, out, compacted);
    if (this.quietSteps > 0) {
      this.quietSteps -= 1;
      return;
    }
    if (this.waits.length > 0) {
      this.workSteps -= 1;
      if (this.workSteps <= 0) {
        this.startWait(nowMs, stamp, out);
        return;
      }
    }
    if (this.mainBytes > RESTFUL_BYTES && chance(this.random, 0.7)) return;
    const roll = this.random();
    if (roll < 0.12) this.prompt(nowMs, stamp, out);
    else if (roll < 0.35) this.say(stamp, out, pick(this.random, ASSISTANT_LINES));
    else if (roll < 0.6) this.ordinaryTool(stamp, out);
    else if (roll < 0.76) this.spawnAgents(nowMs, stamp, out, randomInt(this.random, 1, 4), false);
    else if (roll < 0.9) this.spawnAgents(nowMs, stamp, out, 1, true);
    else this.quietSteps = randomInt(this.random, 2, 8);
  }

  private next(stamp: () => string, parentUuid = this.lastUuid) {
    const uuid = this.ids.uuid();
    this.lastUuid = uuid;
    return { uuid, parentUuid, timestamp: stamp() };
  }

  private message(outputTokens = randomInt(this.random, 20, 300)) {
    const usage = this.usage ? { usage: this.usage.claude(outputTokens), model: this.usage.model } : {};
    return { messageId: this.ids.messageId(), requestId: this.ids.requestId(), outputTokens, ...usage };
  }

  /**
   * A compaction, as Claude Code writes it (issue 37): the boundary in the main journal, and the summarising request
   * as its own compaction agent, `subagents/agent-acompact-<hex>.jsonl` — billed like any other request.
   */
  private compact(stamp: () => string, out: StepOutput, preTokens: number): void {
    const previous = this.lastUuid;
    out.main.push(compactBoundaryLine(this.context, this.next(stamp), previous, preTokens));
    const agentId = `acompact-${this.ids.agentId().slice(1, 17)}`;
    const context = { ...this.context, agentId };
    const promptId = this.ids.uuid();
    const prompt = userPromptLine(context, { uuid: this.ids.uuid(), parentUuid: null, timestamp: stamp() }, promptId, 'Summarise the conversation so far for a fresh context.');
    const summaryTokens = 900 + (preTokens % 700);
    const usage: ClaudeUsageRecord = {
      input_tokens: 6,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: Math.max(0, preTokens - 6),
      output_tokens: summaryTokens,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    };
    const message = { messageId: this.ids.messageId(), requestId: this.ids.requestId(), outputTokens: summaryTokens, model: this.usage?.model, usage };
    const summary = assistantLine(context, { uuid: this.ids.uuid(), parentUuid: null, timestamp: stamp() }, message, { type: 'text', text: 'Summary of the work so far.' });
    out.children.push({ agentId, lines: [prompt, summary] });
  }

  private prompt(nowMs: number, stamp: () => string, out: StepOutput): void {
    this.turnStartMs = nowMs;
    this.promptId = this.ids.uuid();
    out.main.push(userPromptLine(this.context, this.next(stamp), this.promptId, pick(this.random, USER_PROMPTS)));
  }

  private say(stamp: () => string, out: StepOutput, text: string, message = this.message()): void {
    out.main.push(assistantLine(this.context, this.next(stamp), message, { type: 'text', text }));
  }

  /** Writes what makes the session wait for the owner (the next of its waits) and arms the owner's answer. */
  private startWait(nowMs: number, stamp: () => string, out: StepOutput): void {
    const kind = this.waits[this.waitIndex % this.waits.length];
    this.waitIndex += 1;
    const steps = randomInt(this.random, ...WAIT_STEPS);
    const newPrompt = (atMs: number, answerStamp: () => string, answerOut: StepOutput) => this.prompt(atMs, answerStamp, answerOut);
    switch (kind) {
      case 'turn-done': {
        this.say(stamp, out, pick(this.random, ASSISTANT_LINES));
        const durationMs = Math.max(1, nowMs - this.turnStartMs);
        out.main.push(turnDurationLine(this.context, this.next(stamp), durationMs, randomInt(this.random, 6, 40)));
        this.waiting = { steps, answer: newPrompt };
        return;
      }
      case 'question':
      case 'plan':
      case 'approval': {
        const { block, outcome } = this.askingCall(kind);
        const call = this.next(stamp);
        out.main.push(assistantLine(this.context, call, this.message(), block));
        this.waiting = { steps, answer: (_atMs, answerStamp, answerOut) => answerOut.main.push(toolResultLine(this.context, this.next(answerStamp, call.uuid), block.id, outcome)) };
        return;
      }
      case 'interrupted': {
        const id = this.ids.toolUseId();
        const command = pick(this.random, COMMANDS);
        const call = this.next(stamp);
        out.main.push(assistantLine(this.context, call, this.message(), { type: 'tool_use', id, name: 'Bash', input: { command, description: `Run ${command}` } }));
        const refused = { content: "The user doesn't want to proceed with this tool use.", isError: true, toolUseResult: 'Error: [Request interrupted by user for tool use]' };
        out.main.push(toolResultLine(this.context, this.next(stamp, call.uuid), id, refused));
        out.main.push(interruptLine(this.context, this.next(stamp)));
        this.waiting = { steps, answer: newPrompt };
        return;
      }
      case 'error':
        out.main.push(apiErrorLine(this.context, this.next(stamp), this.ids.messageId(), 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'));
        this.waiting = { steps, answer: newPrompt };
        return;
      default:
        kind satisfies never;
    }
  }

  /** A call that waits on the owner (a question, a plan, or a command awaiting permission) and the result once answered. */
  private askingCall(kind: 'question' | 'plan' | 'approval'): { block: AssistantBlock & { type: 'tool_use' }; outcome: ToolOutcome } {
    const id = this.ids.toolUseId();
    if (kind === 'question') {
      const question = { question: 'Which approach should I take?', header: 'Approach', multiSelect: false, options: [{ label: 'Small fix', description: 'Patch the one call site' }, { label: 'Refactor', description: 'Move the logic into a helper' }] };
      return {
        block: { type: 'tool_use', id, name: 'AskUserQuestion', input: { questions: [question] } },
        outcome: {
          content: `User has answered your questions: "${question.question}"="Small fix". You can now continue with the user's answers in mind.`,
          toolUseResult: { questions: [question], answers: { [question.question]: 'Small fix' } },
        },
      };
    }
    if (kind === 'plan') {
      const plan = '1. Read the failing test\n2. Fix the parser\n3. Run the suite';
      return {
        block: { type: 'tool_use', id, name: 'ExitPlanMode', input: { plan } },
        outcome: { content: 'User has approved your plan. You can now start coding.', toolUseResult: { plan, isAgent: false } },
      };
    }
    const command = pick(this.random, COMMANDS);
    return {
      block: { type: 'tool_use', id, name: 'Bash', input: { command, description: `Run ${command}` } },
      outcome: { content: 'done', toolUseResult: { stdout: 'done', stderr: '', interrupted: false } },
    };
  }

  private ordinaryTool(stamp: () => string, out: StepOutput): void {
    const id = this.ids.toolUseId();
    const kind = pick(this.random, ['Read', 'Bash', 'Edit'] as const);
    const file = `${this.context.cwd}/${pick(this.random, FILES)}`;
    let block: AssistantBlock;
    let outcome: ToolOutcome;
    if (kind === 'Read') {
      block = { type: 'tool_use', id, name: 'Read', input: { file_path: file } };
      outcome = { content: '1\t// demo file\n2\texport {};', toolUseResult: { type: 'text', file: { filePath: file, numLines: 2 } } };
    } else if (kind === 'Edit') {
      block = { type: 'tool_use', id, name: 'Edit', input: { file_path: file, old_string: 'draft', new_string: 'final' } };
      outcome = { content: `The file ${file} has been updated.`, toolUseResult: { filePath: file, oldString: 'draft', newString: 'final' } };
    } else {
      const command = pick(this.random, COMMANDS);
      block = { type: 'tool_use', id, name: 'Bash', input: { command, description: `Run ${command}` } };
      outcome = chance(this.random, 0.12)
        ? { content: 'Exit code 1\none check did not pass', isError: true, toolUseResult: 'Error: Exit code 1' }
        : { content: 'done', toolUseResult: { stdout: 'done', stderr: '', interrupted: false } };
    }
    const call = this.next(stamp);
    out.main.push(assistantLine(this.context, call, this.message(), block));
    out.main.push(toolResultLine(this.context, this.next(stamp, call.uuid), id, outcome));
  }

  /** Writes one assistant message (a short text block, then `count` Agent calls) as one line per block. */
  private spawnAgents(nowMs: number, stamp: () => string, out: StepOutput, count: number, background: boolean): void {
    const message = this.message();
    const lead = count > 1 ? `Fanning out ${count} helpers in parallel.` : background ? 'Starting a helper in the background.' : 'Asking a helper.';
    // The lead text and the calls are blocks of one message: one line each, sharing message.id (format §3).
    this.say(stamp, out, lead, message);
    const spawned: SimulatedChild[] = [];
    for (let index = 0; index < count; index += 1) {
      const toolUseId = this.ids.toolUseId();
      const agentId = this.ids.agentId();
      const description = pick(this.random, AGENT_LABELS);
      const subagentType = pick(this.random, SUBAGENT_TYPES);
      const prompt = `${description}. Keep the report short and list what you checked.`;
      const input: Record<string, unknown> = { description, prompt, subagent_type: subagentType };
      if (background) input.run_in_background = true;
      const call = this.next(stamp);
      out.main.push(assistantLine(this.context, call, message, { type: 'tool_use', id: toolUseId, name: 'Agent', input }));
      const child = new SimulatedChild(
        // Every other foreground helper is mirrored by progress lines, so some running ones are replayable live.
        { agentId, toolUseId, description, subagentType, prompt, background, callUuid: call.uuid, startedAtMs: nowMs, mirrored: !background && index % 2 === 0 },
        this.context,
        this.random,
        this.ids,
      );
      out.children.push({ agentId, lines: [child.firstLine(stamp, this.promptId)] });
      out.sidecars.push({ agentId, json: child.sidecar() });
      spawned.push(child);
    }
    if (!background) {
      this.foreground = spawned;
      return;
    }
    for (const child of spawned) {
      const { agentId, description, prompt, callUuid, toolUseId } = child.spawn;
      const outputFile = `/tmp/claude-1000/${escapeCwd(this.context.cwd)}/${this.context.sessionId}/tasks/${agentId}.output`;
      out.main.push(toolResultLine(this.context, this.next(stamp, callUuid), toolUseId, agentLaunched(agentId, description, prompt, outputFile)));
    }
    this.background.push(...spawned);
  }

  private reportForeground(nowMs: number, stamp: () => string, out: StepOutput): void {
    for (const child of this.foreground) {
      const { agentId, subagentType, prompt, callUuid, toolUseId } = child.spawn;
      const outcome =
        child.outcome === 'completed'
          ? agentCompleted(agentId, subagentType, prompt, child.report, child.usage(nowMs))
          : agentFailed('The helper stopped before finishing its report.');
      // Each result points at the line that holds its own call (format §3).
      out.main.push(toolResultLine(this.context, this.next(stamp, callUuid), toolUseId, outcome));
    }
    this.foreground = [];
  }

  private notify(child: SimulatedChild, nowMs: number, stamp: () => string, out: StepOutput): void {
    const { agentId, toolUseId, description } = child.spawn;
    const result = child.outcome === 'completed' ? child.report : 'Partial notes only.';
    out.main.push(
      taskNotificationLine(this.context, this.next(stamp), { agentId, toolUseId, description, status: child.outcome, result, usage: child.usage(nowMs) }),
    );
  }
}
