/**
 * What the Claude Code reader's rules know of the journal format (issue 29's census): the line types, content block
 * types and envelope fields of `../shared/formats/claude-code.md` §3–§4 and of the fixtures, and the versions those
 * fixtures cover (RULES.md, "Format census"). Anything else met on a line read is counted by name as drift.
 */
import type { KnownFormat } from '../kit/census';

/** Line `type`s (format §3–§4); `marble-origami-*` types are matched by prefix in `lineKind`. */
export const CLAUDE_LINE_TYPES = [
  'user', 'assistant', 'system', 'attachment', 'queue-operation', 'progress', 'summary', 'ai-title', 'custom-title',
  'last-prompt', 'mode', 'permission-mode', 'tag', 'agent-name', 'agent-color', 'agent-setting', 'pr-link',
  'file-history-snapshot', 'attribution-snapshot', 'content-replacement', 'worktree-state', 'task-summary',
  'speculation-accept', 'bridge-session', 'atis-latch', 'marble-origami-*',
] as const;

/** `message.content` block types (format §3), counted as kinds named `block:<type>`. */
export const CLAUDE_BLOCK_TYPES = ['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'document'] as const;

/** Top-level fields of journal lines (format §3–§4, fixtures 01–05 and the demo). */
export const CLAUDE_FIELDS = [
  'type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'agentId', 'sessionId', 'timestamp', 'cwd', 'gitBranch',
  'version', 'userType', 'entrypoint', 'slug', 'promptId', 'requestId', 'isMeta', 'isCompactSummary',
  'isVisibleInTranscriptOnly', 'permissionMode', 'promptSource', 'origin', 'teamName', 'agentName', 'agentColor',
  'toolUseResult', 'sourceToolAssistantUUID', 'sourceToolUseID', 'mcpMeta', 'message', 'subtype', 'content', 'level',
  'operation', 'data', 'parentToolUseID', 'toolUseID', 'summary', 'leafUuid', 'aiTitle', 'customTitle', 'attachment',
  'snapshot', 'messageId', 'isSnapshotUpdate', 'durationMs', 'compactMetadata', 'lastPrompt', 'mode', 'tag',
  'hasOutput', 'hookCount', 'hookErrors', 'hookInfos', 'isApiErrorMessage', 'messageCount', 'preventedContinuation',
  'stopReason', 'error', 'retryInMs', 'retryAttempt', 'maxRetries', 'cause', 'toolUseId', 'prLink', 'agentSetting',
] as const;

/** The Claude Code format the reader knows, and the versions its fixtures cover (1.0.108 to 2.1.114). */
export const CLAUDE_KNOWN: KnownFormat = {
  kinds: new Set<string>([...CLAUDE_LINE_TYPES, ...CLAUDE_BLOCK_TYPES.map((type) => `block:${type}`)]),
  fields: new Set<string>(CLAUDE_FIELDS),
  tested: { from: '1.0.108', to: '2.1.114' },
};

/** The census kind of a line: its `type`, `(no type)` when it has none, one name for the `marble-origami-*` family. */
export function lineKind(type: unknown): string {
  if (typeof type !== 'string') return '(no type)';
  return type.startsWith('marble-origami-') ? 'marble-origami-*' : type;
}
