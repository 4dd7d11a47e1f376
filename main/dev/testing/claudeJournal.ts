/**
 * Builders of synthetic Claude Code journal lines, shaped like real 2.1.x lines, for tests and the benchmark.
 * Nothing here reads or writes files.
 */

/** Common envelope fields of a generated line. */
export interface LineContext {
  sessionId: string;
  at: string;
  sidechain?: boolean;
  agentId?: string;
  uuid?: string;
}

type Block = Record<string, unknown>;

let lineCounter = 0;

function envelope(context: LineContext, type: string): Record<string, unknown> {
  const line: Record<string, unknown> = {
    parentUuid: null,
    isSidechain: context.sidechain ?? false,
    userType: 'external',
    cwd: '/work/demo',
    sessionId: context.sessionId,
    version: '2.1.114',
    type,
    uuid: context.uuid ?? `00000000-0000-4000-8000-${(lineCounter += 1).toString(16).padStart(12, '0')}`,
    timestamp: context.at,
  };
  if (context.agentId) line.agentId = context.agentId;
  return line;
}

/** An assistant line holding the given content blocks of message `messageId`. */
export function assistantLine(context: LineContext, messageId: string, content: Block[]): string {
  return JSON.stringify({ ...envelope(context, 'assistant'), message: { id: messageId, type: 'message', role: 'assistant', model: 'claude-opus-4-7', content, stop_reason: null } });
}

/** A user line with string or block content and an optional `toolUseResult`. */
export function userLine(context: LineContext, content: string | Block[], toolUseResult?: unknown): string {
  const line: Record<string, unknown> = { ...envelope(context, 'user'), message: { role: 'user', content } };
  if (toolUseResult !== undefined) line.toolUseResult = toolUseResult;
  return JSON.stringify(line);
}

/** An `Agent` tool_use block. */
export function agentCall(id: string, description: string, extra: Record<string, unknown> = {}): Block {
  return { type: 'tool_use', id, name: 'Agent', input: { description, prompt: `Please ${description.toLowerCase()}.`, subagent_type: 'general-purpose', ...extra } };
}

/** Any tool_use block. */
export function toolCall(id: string, name: string, input: Record<string, unknown>): Block {
  return { type: 'tool_use', id, name, input };
}

/** A tool_result block. */
export function toolResult(toolUseId: string, text: string, isError = false): Block {
  const block: Block = { type: 'tool_result', tool_use_id: toolUseId, content: [{ type: 'text', text }] };
  if (isError) block.is_error = true;
  return block;
}

/** A text block. */
export function textBlock(text: string): Block {
  return { type: 'text', text };
}

/** The text of a `<task-notification>` for a background agent. */
export function notificationText(taskId: string, status: 'completed' | 'failed' | 'killed', toolUseId?: string): string {
  const toolLine = toolUseId ? `<tool-use-id>${toolUseId}</tool-use-id>\n` : '';
  return `<task-notification>\n<task-id>${taskId}</task-id>\n${toolLine}<status>${status}</status>\n<summary>Agent finished</summary>\n</task-notification>`;
}

/** An ISO timestamp `seconds` after a fixed base, for deterministic ordering. */
export function isoAt(seconds: number): string {
  return new Date(Date.UTC(2026, 4, 1, 9, 0, 0) + seconds * 1000).toISOString();
}

/**
 * A parent `progress` line of 2.0.x–2.1.7x mirroring a running subagent's message (`data.type: "agent_progress"`):
 * it names the call (`parentToolUseID`) and the child (`data.agentId`), and carries the mirrored message.
 */
export function progressLine(context: LineContext, toolUseId: string, agentId: string, mirrored = 'Working on it.'): string {
  const message = { type: 'assistant', timestamp: context.at, message: { role: 'assistant', type: 'message', content: [{ type: 'text', text: mirrored }] } };
  return JSON.stringify({
    ...envelope(context, 'progress'),
    data: { message, normalizedMessages: [], type: 'agent_progress', prompt: mirrored, agentId },
    toolUseID: `agent_msg_${toolUseId.slice(-12)}`,
    parentToolUseID: toolUseId,
  });
}
