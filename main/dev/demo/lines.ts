/**
 * Pure builders of Claude Code journal lines (format: ../shared/formats/claude-code.md §3–§8). Each returns one
 * JSON line ending in '\n'. Assistant messages are written one content block per line sharing `message.id`.
 */

import type { ClaudeUsageRecord } from './usageRecords';

/** Which journal a line belongs to: a session's main file, or a subagent file of that session. */
export interface JournalContext {
  sessionId: string;
  cwd: string;
  slug: string;
  /** Set on subagent files: every line then carries `agentId` and `isSidechain: true`. */
  agentId?: string;
}

/** The Claude Code version the demo claims; late enough for `Agent`, `a`+16 hex ids and sidecars. */
export const DEMO_VERSION = '2.1.120';
const MAIN_MODEL = 'claude-sonnet-4-5';

/** The fields shared by every line of one write. */
export interface LineBase {
  uuid: string;
  parentUuid: string | null;
  timestamp: string;
}

function envelope(context: JournalContext, base: LineBase, type: 'user' | 'assistant' | 'progress' | 'system'): Record<string, unknown> {
  const line: Record<string, unknown> = {
    parentUuid: base.parentUuid,
    isSidechain: context.agentId !== undefined,
    userType: 'external',
    cwd: context.cwd,
    sessionId: context.sessionId,
    version: DEMO_VERSION,
    gitBranch: 'main',
    slug: context.slug,
  };
  if (context.agentId !== undefined) line.agentId = context.agentId;
  line.type = type;
  line.uuid = base.uuid;
  line.timestamp = base.timestamp;
  return line;
}

function serialize(line: Record<string, unknown>): string {
  return `${JSON.stringify(line)}\n`;
}

/** A plain user prompt; `content` is a string as Claude Code writes typed prompts and a subagent's first line. */
export function userPromptLine(context: JournalContext, base: LineBase, promptId: string, text: string): string {
  const line = envelope(context, base, 'user');
  line.promptId = promptId;
  line.message = { role: 'user', content: text };
  return serialize(line);
}

/** One content block of an assistant message. */
export type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** One line of an assistant message (one block); lines of the same message share `messageId` and `requestId`. */
export function assistantLine(
  context: JournalContext,
  base: LineBase,
  message: { messageId: string; requestId: string; model?: string; outputTokens: number; usage?: ClaudeUsageRecord },
  block: AssistantBlock,
): string {
  const line = envelope(context, base, 'assistant');
  line.requestId = message.requestId;
  line.message = {
    id: message.messageId,
    type: 'message',
    role: 'assistant',
    model: message.model ?? MAIN_MODEL,
    content: [block],
    // 2.1.x writes no stop reason on text lines: a turn's end is told by a `turn_duration` line, or not at all.
    stop_reason: block.type === 'tool_use' ? 'tool_use' : null,
    usage: message.usage ?? { input_tokens: 12, cache_read_input_tokens: 2048, output_tokens: message.outputTokens },
  };
  return serialize(line);
}

/** The `system` line with subtype `compact_boundary` Claude Code writes at a compaction (format §4): a new chain. */
export function compactBoundaryLine(context: JournalContext, base: LineBase, logicalParentUuid: string | null, preTokens: number): string {
  const line = envelope(context, { ...base, parentUuid: null }, 'system');
  line.subtype = 'compact_boundary';
  line.logicalParentUuid = logicalParentUuid;
  line.content = 'Conversation compacted';
  line.compactMetadata = { trigger: 'auto', preTokens };
  line.isMeta = false;
  return serialize(line);
}

/** The `system` line with subtype `turn_duration` Claude Code writes after some finished turns (format §4). */
export function turnDurationLine(context: JournalContext, base: LineBase, durationMs: number, messageCount: number): string {
  const line = envelope(context, base, 'system');
  line.subtype = 'turn_duration';
  line.durationMs = durationMs;
  line.messageCount = messageCount;
  line.isMeta = false;
  return serialize(line);
}

/** The user line Claude Code writes when the owner presses Esc during a turn. */
export function interruptLine(context: JournalContext, base: LineBase): string {
  const line = envelope(context, base, 'user');
  line.message = { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] };
  return serialize(line);
}

/** A synthetic assistant line reporting a failed API call (`isApiErrorMessage`), as Claude Code writes on overload. */
export function apiErrorLine(context: JournalContext, base: LineBase, messageId: string, text: string): string {
  const line = envelope(context, base, 'assistant');
  line.message = {
    id: messageId,
    type: 'message',
    role: 'assistant',
    model: '<synthetic>',
    content: [{ type: 'text', text }],
    stop_reason: 'stop_sequence',
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  line.isApiErrorMessage = true;
  return serialize(line);
}

/** What a tool returned: the tool_result content, its error flag, and the structured `toolUseResult`. */
export interface ToolOutcome {
  content: string | { type: 'text'; text: string }[];
  isError?: boolean;
  toolUseResult: unknown;
}

/** A tool_result user line; `parentUuid` and `sourceToolAssistantUUID` point at the line holding the call. */
export function toolResultLine(context: JournalContext, base: LineBase, toolUseId: string, outcome: ToolOutcome): string {
  const line = envelope(context, base, 'user');
  const block: Record<string, unknown> = { tool_use_id: toolUseId, type: 'tool_result', content: outcome.content };
  if (outcome.isError) block.is_error = true;
  line.message = { role: 'user', content: [block] };
  line.toolUseResult = outcome.toolUseResult;
  line.sourceToolAssistantUUID = base.parentUuid;
  return serialize(line);
}

/**
 * A `progress` line in the parent while a subagent runs (2.0.x–2.1.7x builds, format §4): it names the running call
 * (`parentToolUseID`) and the child's agent id, the recorded live locator of the child's file. No content is mirrored.
 */
export function agentProgressLine(context: JournalContext, base: LineBase, toolUseId: string, agentId: string): string {
  const line = envelope(context, base, 'progress');
  line.data = { type: 'agent_progress', agentId };
  line.toolUseID = `agent_msg_${base.uuid.replace(/-/g, '').slice(0, 24)}`;
  line.parentToolUseID = toolUseId;
  return serialize(line);
}

/** Usage figures of a finished subagent. */
export interface AgentUsage {
  totalTokens: number;
  toolUses: number;
  durationMs: number;
}

/** The tool_result outcome of a foreground Agent call that completed. */
export function agentCompleted(agentId: string, agentType: string, prompt: string, report: string, usage: AgentUsage): ToolOutcome {
  const trailer =
    `agentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)\n` +
    `<usage>total_tokens: ${usage.totalTokens}\ntool_uses: ${usage.toolUses}\nduration_ms: ${usage.durationMs}</usage>`;
  return {
    content: [
      { type: 'text', text: report },
      { type: 'text', text: trailer },
    ],
    toolUseResult: {
      status: 'completed',
      prompt,
      agentId,
      agentType,
      content: [{ type: 'text', text: report }],
      totalDurationMs: usage.durationMs,
      totalTokens: usage.totalTokens,
      totalToolUseCount: usage.toolUses,
      usage: { input_tokens: 40, output_tokens: Math.round(usage.totalTokens / 10) },
    },
  };
}

/** The tool_result outcome of a foreground Agent call that failed: error flag and a string `toolUseResult`. */
export function agentFailed(reason: string): ToolOutcome {
  return { content: `<tool_use_error>${reason}</tool_use_error>`, isError: true, toolUseResult: `Error: ${reason}` };
}

/** The immediate tool_result of a background Agent call: `async_launched`, which is not completion. */
export function agentLaunched(agentId: string, description: string, prompt: string, outputFile: string): ToolOutcome {
  return {
    content: [
      {
        type: 'text',
        text:
          `Async agent launched successfully.\nagentId: ${agentId} (internal ID - do not mention to user.)\n` +
          'The agent is working in the background. You will be notified automatically when it completes.',
      },
    ],
    toolUseResult: { isAsync: true, status: 'async_launched', agentId, description, prompt, outputFile },
  };
}

/** How a background subagent ended. */
export type BackgroundStatus = 'completed' | 'failed' | 'killed';

/** The `<task-notification>` user line that tells the parent a background subagent ended. */
export function taskNotificationLine(
  context: JournalContext,
  base: LineBase,
  note: { agentId: string; toolUseId: string; description: string; status: BackgroundStatus; result: string; usage: AgentUsage },
): string {
  const summary =
    note.status === 'completed'
      ? `Agent "${note.description}" completed`
      : note.status === 'failed'
        ? `Agent "${note.description}" failed: the demo task gave up`
        : `Agent "${note.description}" was stopped`;
  const text =
    '<task-notification>\n' +
    `<task-id>${note.agentId}</task-id>\n` +
    `<tool-use-id>${note.toolUseId}</tool-use-id>\n` +
    `<status>${note.status}</status>\n` +
    `<summary>${summary}</summary>\n` +
    `<result>${note.result}</result>\n` +
    `<usage>total_tokens: ${note.usage.totalTokens}\ntool_uses: ${note.usage.toolUses}\nduration_ms: ${note.usage.durationMs}</usage>\n` +
    '</task-notification>';
  const line = envelope(context, base, 'user');
  line.origin = { kind: 'task-notification' };
  line.message = { role: 'user', content: text };
  return serialize(line);
}

/** The demo writes its journals where Claude Code would: the reader's own folder-name escape. */
export { escapeCwd } from '../../sources/readers/claude/locate';
