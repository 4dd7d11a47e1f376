/**
 * One simulated subagent: its scripted lines (prompt, prose, a tool call and its result, a final report), written
 * one per simulation step into `<sessionId>/subagents/agent-<agentId>.jsonl`.
 */
import { assistantLine, toolResultLine, userPromptLine, type AgentUsage, type BackgroundStatus, type JournalContext } from './lines';
import { ASSISTANT_LINES, COMMANDS, FILES, FINAL_REPORTS } from './prose';
import { chance, pick, randomInt, type IdMaker, type Random } from './random';

type ChildAction = 'text' | 'tool' | 'result' | 'final';

/** How a subagent will end: foreground calls complete or fail; background ones may also be killed. */
export type ChildOutcome = BackgroundStatus;

/** The spawn facts of one subagent, as the parent's Agent call states them. */
export interface ChildSpawn {
  agentId: string;
  toolUseId: string;
  description: string;
  subagentType: string;
  prompt: string;
  background: boolean;
  /** Uuid of the parent's assistant line holding the call (foreground results point at it). */
  callUuid: string;
  /** True when the parent mirrors this child's lines with `progress` lines (its live locator, format §4). */
  mirrored: boolean;
  startedAtMs: number;
}

/** The simulation of one subagent's journal. */
export class SimulatedChild {
  readonly spawn: ChildSpawn;
  readonly outcome: ChildOutcome;
  readonly report: string;
  private readonly context: JournalContext;
  private readonly script: ChildAction[];
  private lastUuid: string | null = null;
  private pendingTool: { id: string; name: string } | null = null;
  private toolUses = 0;

  constructor(
    spawn: ChildSpawn,
    parent: { sessionId: string; cwd: string; slug: string },
    private readonly random: Random,
    private readonly ids: IdMaker,
  ) {
    this.spawn = spawn;
    this.context = { ...parent, agentId: spawn.agentId };
    const roll = random();
    if (spawn.background) this.outcome = roll < 0.8 ? 'completed' : roll < 0.92 ? 'failed' : 'killed';
    else this.outcome = roll < 0.9 ? 'completed' : 'failed';
    this.report = pick(random, FINAL_REPORTS);
    // Background helpers work longer, so a running replay has lines to follow.
    const rounds = spawn.background ? randomInt(random, 2, 6) : randomInt(random, 1, 2);
    const script: ChildAction[] = [];
    for (let round = 0; round < rounds; round += 1) script.push('text', 'tool', 'result');
    // A failed or killed child stops early: nothing in the child file says it ended (format §7).
    if (this.outcome === 'completed') script.push('final');
    else script.splice(randomInt(random, 1, script.length - 1));
    this.script = script;
  }

  /** True once every scripted line is written. */
  get done(): boolean {
    return this.script.length === 0;
  }

  /** The figures reported in the parent's result or notification. */
  usage(nowMs: number): AgentUsage {
    return {
      totalTokens: 1800 + this.toolUses * 900 + randomInt(this.random, 0, 700),
      toolUses: this.toolUses,
      durationMs: Math.max(1, nowMs - this.spawn.startedAtMs),
    };
  }

  /** The first line: the Agent call's prompt as a user message with `parentUuid: null`. */
  firstLine(stamp: () => string, promptId: string): string {
    const uuid = this.ids.uuid();
    const line = userPromptLine(this.context, { uuid, parentUuid: null, timestamp: stamp() }, promptId, this.spawn.prompt);
    this.lastUuid = uuid;
    return line;
  }

  /** The sidecar `agent-<id>.meta.json` written beside the child file (later 2.1.x builds). */
  sidecar(): string {
    return JSON.stringify({ agentType: this.spawn.subagentType, description: this.spawn.description, toolUseId: this.spawn.toolUseId });
  }

  /** Writes the next scripted line, or nothing when done. */
  advance(stamp: () => string): string[] {
    const action = this.script.shift();
    if (action === undefined) return [];
    const uuid = this.ids.uuid();
    const base = { uuid, parentUuid: this.lastUuid, timestamp: stamp() };
    this.lastUuid = uuid;
    const model = this.spawn.subagentType === 'Explore' ? 'claude-haiku-4-5' : undefined;
    const message = { messageId: this.ids.messageId(), requestId: this.ids.requestId(), model, outputTokens: randomInt(this.random, 20, 400) };
    switch (action) {
      case 'text':
        return [assistantLine(this.context, base, message, { type: 'text', text: pick(this.random, ASSISTANT_LINES) })];
      case 'final':
        return [assistantLine(this.context, base, message, { type: 'text', text: this.report })];
      case 'tool': {
        const id = this.ids.toolUseId();
        const useRead = chance(this.random, 0.6);
        const name = useRead ? 'Read' : 'Bash';
        const input = useRead ? { file_path: `${this.context.cwd}/${pick(this.random, FILES)}` } : { command: pick(this.random, COMMANDS) };
        this.pendingTool = { id, name };
        this.toolUses += 1;
        return [assistantLine(this.context, base, message, { type: 'tool_use', id, name, input })];
      }
      case 'result': {
        const tool = this.pendingTool ?? { id: this.ids.toolUseId(), name: 'Read' };
        this.pendingTool = null;
        const text = tool.name === 'Read' ? '1\texport function demo() {}\n2\t' : 'ok';
        return [toolResultLine(this.context, base, tool.id, { content: text, toolUseResult: { stdout: text, stderr: '', interrupted: false } })];
      }
      default:
        return action satisfies never;
    }
  }
}
