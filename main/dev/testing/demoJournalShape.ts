/**
 * Test helpers: the documented Claude Code line shape as zod schemas, and a reader of one demo session's calls.
 * Used by the demo's tests only.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const isoWithMs = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

/** Agent ids: 'a' + 16 hex. */
export const AGENT_ID = /^a[0-9a-f]{16}$/;
/** Tool use ids: 'toolu_' + 24 base62 characters. */
export const TOOL_USE_ID = /^toolu_[0-9A-Za-z]{24}$/;

const envelope = z.object({
  parentUuid: uuid.nullable(),
  isSidechain: z.boolean(),
  userType: z.literal('external'),
  cwd: z.string().startsWith('/home/demo/src/'),
  sessionId: uuid,
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  uuid,
  timestamp: isoWithMs,
  agentId: z.string().regex(AGENT_ID).optional(),
});

const block = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().min(1) }),
  z.object({ type: z.literal('tool_use'), id: z.string().regex(TOOL_USE_ID), name: z.string(), input: z.record(z.string(), z.unknown()) }),
]);

const assistant = envelope.extend({
  type: z.literal('assistant'),
  // Only the synthetic line of a failed API call has no request id (checked in readJournal).
  requestId: z.string().startsWith('req_').optional(),
  isApiErrorMessage: z.literal(true).optional(),
  message: z.object({
    id: z.string().startsWith('msg_'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(block).length(1), // one content block per line
    usage: z.object({ output_tokens: z.number() }),
  }),
});

const toolResult = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().regex(TOOL_USE_ID),
  content: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }))]),
  is_error: z.literal(true).optional(),
});

const user = envelope.extend({
  type: z.literal('user'),
  message: z.object({
    role: z.literal('user'),
    content: z.union([z.string().min(1), z.array(toolResult).length(1), z.array(z.object({ type: z.literal('text'), text: z.string().min(1) })).length(1)]),
  }),
  toolUseResult: z.unknown().optional(),
});

const progress = envelope.extend({
  type: z.literal('progress'),
  toolUseID: z.string().min(1),
  parentToolUseID: z.string().regex(TOOL_USE_ID),
  data: z.object({ type: z.literal('agent_progress'), agentId: z.string().regex(AGENT_ID) }),
});

const system = envelope.extend({
  type: z.literal('system'),
  subtype: z.literal('turn_duration'),
  durationMs: z.number().int().positive(),
  messageCount: z.number().int().positive(),
});

/** One journal line in the documented shape. */
export const LineSchema = z.discriminatedUnion('type', [assistant, user, progress, system]);
/** A parsed journal line. */
export type Line = z.infer<typeof LineSchema>;

/** Reads a journal: every line must end in '\n', parse as JSON and match the shape (throws otherwise). */
export function readJournal(file: string): Line[] {
  const text = readFileSync(file, 'utf8');
  if (text.length > 0 && !text.endsWith('\n')) throw new Error(`${file} ends mid-line`);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => {
      const parsed = LineSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${index + 1}: ${parsed.error.message}`);
      if (parsed.data.type === 'assistant' && parsed.data.requestId === undefined && parsed.data.isApiErrorMessage !== true) {
        throw new Error(`${file}:${index + 1}: an assistant line without requestId that is not an API error`);
      }
      return parsed.data;
    });
}

/** One Agent call of a main journal and what the journal says about its end. */
export interface CallRecord {
  toolUseId: string;
  messageId: string;
  at: string;
  input: Record<string, unknown>;
  result?: { isError: boolean; toolUseResult: unknown };
  notification?: { taskId: string; status: string };
}

/** The Agent calls of a main journal, with their results and notifications. */
export function agentCalls(lines: Line[]): CallRecord[] {
  const calls = new Map<string, CallRecord>();
  for (const line of lines) {
    if (line.type === 'progress' || line.type === 'system') continue;
    if (line.type === 'assistant') {
      const only = line.message.content[0];
      if (only.type === 'tool_use' && only.name === 'Agent') {
        calls.set(only.id, { toolUseId: only.id, messageId: line.message.id, at: line.timestamp, input: only.input });
      }
      continue;
    }
    const content = line.message.content;
    if (typeof content === 'string') {
      const toolUseId = /<tool-use-id>([^<]+)<\/tool-use-id>/.exec(content)?.[1];
      const call = toolUseId ? calls.get(toolUseId) : undefined;
      if (call && content.startsWith('<task-notification>')) {
        call.notification = {
          taskId: /<task-id>([^<]+)<\/task-id>/.exec(content)?.[1] ?? '',
          status: /<status>([^<]+)<\/status>/.exec(content)?.[1] ?? '',
        };
      }
      continue;
    }
    const first = content[0];
    if (first.type !== 'tool_result') continue;
    const call = calls.get(first.tool_use_id);
    if (call) call.result = { isError: first.is_error === true, toolUseResult: line.toolUseResult };
  }
  return [...calls.values()];
}
