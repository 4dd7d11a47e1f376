/**
 * Restarting the demo on an existing home, for Codex seats: the same seed gives the same parent thread, so the new run
 * appends to the old rollout. What the previous run left open there — a turn, and children no parent record settled —
 * is closed in Codex's own records (an interrupted turn, a `shutdown` notification per child), so no helper stays
 * "running" and no question or approval waits forever.
 */
import { promises as fs } from 'node:fs';
import { RESUME_TAIL_BYTES } from './resume';

/** What a previous run left in a parent rollout. */
export interface CodexLeftovers {
  /** The rollout's size (salts the new run's draws). */
  bytes: number;
  /** The turn id of a turn without its end, if any. */
  openTurn: string | null;
  /** Thread ids of spawned children no record settled, in spawn order. */
  openChildren: string[];
  /** True when the rollout ends mid-line. */
  endsMidLine: boolean;
  /** True when the rollout holds more than its header line (a previous run wrote to it). */
  resumed: boolean;
}

/** AgentStatus values that end a child (format §5; `interrupted` too, as the reader reads it). */
function isEnding(status: unknown): boolean {
  if (typeof status === 'string') return status !== 'running' && status !== 'pending_init';
  return typeof status === 'object' && status !== null;
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Pure: the open turn and unsettled children in a rollout tail (lines that do not parse are skipped). */
export function findCodexLeftovers(tail: string): { openTurn: string | null; openChildren: string[] } {
  let openTurn: string | null = null;
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const children = new Map<string, boolean>();
  const settle = (id: unknown) => typeof id === 'string' && children.has(id) && children.set(id, false);
  for (const text of tail.split('\n')) {
    const line = parse(text);
    const payload = line && (line.payload as Record<string, unknown> | undefined);
    if (!line || !payload) continue;
    if (line.type === 'event_msg') {
      if (payload.type === 'task_started') openTurn = typeof payload.turn_id === 'string' ? payload.turn_id : 'turn';
      else if (payload.type === 'task_complete' || payload.type === 'turn_aborted') openTurn = null;
      continue;
    }
    if (line.type !== 'response_item') continue;
    if (payload.type === 'function_call' && typeof payload.call_id === 'string') {
      calls.set(payload.call_id, { name: String(payload.name), args: parse(String(payload.arguments)) ?? {} });
    } else if (payload.type === 'function_call_output' && typeof payload.call_id === 'string') {
      const call = calls.get(payload.call_id);
      calls.delete(payload.call_id);
      const body = parse(String(payload.output));
      if (call?.name === 'spawn_agent' && typeof body?.agent_id === 'string') children.set(body.agent_id, true);
      else if (call?.name === 'close_agent') settle(call.args.target);
      else if (call?.name === 'wait_agent') {
        for (const [id, status] of Object.entries((body?.status as Record<string, unknown> | undefined) ?? {})) if (isEnding(status)) settle(id);
      }
    } else if (payload.type === 'message' && Array.isArray(payload.content)) {
      for (const item of payload.content as { text?: unknown }[]) {
        const match = typeof item?.text === 'string' ? /<subagent_notification>([\s\S]*?)<\/subagent_notification>/.exec(item.text) : null;
        const body = match ? parse(match[1].trim()) : null;
        if (body && isEnding(body.status)) settle(body.agent_path);
      }
    }
  }
  return { openTurn, openChildren: [...children].filter(([, open]) => open).map(([id]) => id) };
}

/** Reads the tail of a parent rollout for what a previous run left open. */
export async function readCodexLeftovers(file: string): Promise<CodexLeftovers> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, RESUME_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const tail = buffer.toString('utf8');
    const resumed = tail.indexOf('\n') !== -1 && tail.indexOf('\n') < tail.length - 1;
    return { bytes: size, ...findCodexLeftovers(tail), endsMidLine: length > 0 && !tail.endsWith('\n'), resumed };
  } finally {
    await handle.close();
  }
}

/** The lines that close what a previous run left: children shut down, then the open turn interrupted. */
export function closeCodexLeftovers(leftovers: CodexLeftovers, atMs: number): string[] {
  const at = new Date(atMs).toISOString();
  const line = (type: string, payload: Record<string, unknown>) => `${JSON.stringify({ timestamp: at, type, payload })}\n`;
  const lines: string[] = [];
  for (const id of leftovers.openChildren) {
    const text = `<subagent_notification>\n${JSON.stringify({ agent_path: id, status: 'shutdown' })}\n</subagent_notification>`;
    lines.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }));
  }
  if (leftovers.openTurn !== null) lines.push(line('event_msg', { type: 'turn_aborted', turn_id: leftovers.openTurn, reason: 'interrupted' }));
  if (lines.length > 0 && leftovers.endsMidLine) lines.unshift('\n');
  return lines;
}
