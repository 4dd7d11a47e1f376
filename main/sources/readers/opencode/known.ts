/**
 * What the OpenCode reader's rules know of the 1.x store (issue 29's census): message roles, part types and the
 * top-level fields of message and part JSON of `../shared/formats/opencode.md` §5–§6, and the versions the fixtures
 * cover (RULES.md, "Format census").
 */
import type { KnownFormat } from '../kit/census';

/** Message roles (format §5), counted as `message.<role>`. */
export const OPENCODE_ROLES = ['user', 'assistant'] as const;

/** Part types (format §6), counted as `part.<type>`. */
export const OPENCODE_PART_TYPES = [
  'text', 'subtask', 'reasoning', 'file', 'tool', 'step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'retry', 'compaction',
] as const;

/** Top-level fields of message JSON (format §5; `id` and `sessionID` live in columns but may be kept). */
export const OPENCODE_MESSAGE_FIELDS = [
  'id', 'sessionID', 'role', 'time', 'agent', 'model', 'format', 'summary', 'system', 'tools', 'parentID', 'modelID',
  'providerID', 'mode', 'path', 'cost', 'tokens', 'error', 'structured', 'variant', 'finish',
] as const;

/** Top-level fields of part JSON (format §6 and the fixtures). */
export const OPENCODE_PART_FIELDS = [
  'id', 'sessionID', 'messageID', 'type', 'text', 'synthetic', 'ignored', 'time', 'metadata', 'reason', 'snapshot', 'cost',
  'tokens', 'prompt', 'description', 'agent', 'model', 'command', 'callID', 'tool', 'state', 'files', 'hash', 'name',
  'source', 'url', 'mime', 'filename', 'attempt', 'error', 'auto', 'overflow',
] as const;

/** The OpenCode store format the reader knows, and the versions its fixtures cover (1.2.0 to 1.15.13). */
export const OPENCODE_KNOWN: KnownFormat = {
  kinds: new Set<string>([...OPENCODE_ROLES.map((role) => `message.${role}`), ...OPENCODE_PART_TYPES.map((type) => `part.${type}`)]),
  fields: new Set<string>([...OPENCODE_MESSAGE_FIELDS.map((key) => `message.${key}`), ...OPENCODE_PART_FIELDS.map((key) => `part.${key}`)]),
  tested: { from: '1.2.0', to: '1.15.13' },
};
