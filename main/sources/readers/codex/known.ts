/**
 * What the Codex reader's rules know of the rollout format (issue 29's census): the envelope types, the
 * `response_item` and `event_msg` payload types of `../shared/formats/codex.md` §3 and §7 and of the fixtures, the
 * envelope's fields, and the versions the fixtures cover (RULES.md, "Format census").
 */
import type { KnownFormat } from '../kit/census';

/** Envelope `type`s (format §3). */
export const CODEX_ENVELOPE_TYPES = ['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'] as const;

/** `response_item` payload types (format §3), counted as `response_item.<type>`. */
export const CODEX_ITEM_TYPES = [
  'message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output',
  'local_shell_call', 'tool_search_call', 'tool_search_output', 'web_search_call', 'image_generation_call',
  'ghost_snapshot', 'compaction',
] as const;

/** `event_msg` payload types a rollout stores (format §7, both persistence modes), counted as `event_msg.<type>`. */
export const CODEX_EVENT_TYPES = [
  'task_started', 'task_complete', 'turn_aborted', 'user_message', 'agent_message', 'agent_reasoning',
  'agent_reasoning_raw_content', 'agent_reasoning_section_break', 'token_count', 'thread_name_updated',
  'context_compacted', 'entered_review_mode', 'exited_review_mode', 'thread_rolled_back', 'undo_completed',
  'image_generation_end', 'plan_update', 'error', 'warning', 'stream_error', 'exec_command_end', 'patch_apply_end',
  'mcp_tool_call_end', 'web_search_end', 'view_image_tool_call', 'request_user_input', 'collab_agent_spawn_end',
  'collab_agent_interaction_end', 'collab_waiting_end', 'collab_close_end', 'collab_resume_end', 'turn_diff',
] as const;

/** Envelope fields (format §3). */
export const CODEX_FIELDS = ['timestamp', 'type', 'payload'] as const;

/** The Codex rollout format the reader knows, and the versions its fixtures cover (0.120.0 to 0.124.0). */
export const CODEX_KNOWN: KnownFormat = {
  kinds: new Set<string>([
    ...CODEX_ENVELOPE_TYPES,
    ...CODEX_ITEM_TYPES.map((type) => `response_item.${type}`),
    ...CODEX_EVENT_TYPES.map((type) => `event_msg.${type}`),
  ]),
  fields: new Set<string>(CODEX_FIELDS),
  tested: { from: '0.120.0', to: '0.124.0' },
};

/** The census kind of an envelope: its type, and for items and events the payload's type too. */
export function envelopeKind(type: unknown, payloadType: unknown): string {
  if (typeof type !== 'string') return '(no type)';
  if (type !== 'response_item' && type !== 'event_msg') return type;
  return `${type}.${typeof payloadType === 'string' ? payloadType : '(no type)'}`;
}
