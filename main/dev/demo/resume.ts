/**
 * Restarting the demo on an existing home: the same seed gives the same session ids, so the new run appends to the
 * old journals. Tool calls the previous run left open are found in the journal's tail and closed, so no subagent
 * stays "running" and no question, plan or approval stays waiting forever.
 */
import { promises as fs } from 'node:fs';

/** A tool call (an Agent call, a question, a plan, a command) found open in a previous run's journal. */
export interface OpenCall {
  toolUseId: string;
  /** The tool's name (`Agent`, `AskUserQuestion`, `ExitPlanMode`, `Bash`, …). */
  tool: string;
  /** Uuid of the assistant line holding the call. */
  callUuid: string;
  /** The Agent call's description; the tool's name for other tools. */
  description: string;
  /** Set once the call was launched in the background (`async_launched`); then only a notification closes it. */
  agentId: string | null;
}

/** Bytes of a previous journal's tail that are searched for open calls; demo calls close within a few dozen lines. */
export const RESUME_TAIL_BYTES = 256 * 1024;

interface LooseLine {
  uuid?: unknown;
  message?: { content?: unknown };
  toolUseResult?: unknown;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The tool calls in `tail` without a result (or, for a background Agent call, a task notification), in file order. */
export function findOpenCalls(tail: string): OpenCall[] {
  const open = new Map<string, OpenCall>();
  for (const text of tail.split('\n')) {
    let line: LooseLine;
    try {
      line = JSON.parse(text) as LooseLine;
    } catch {
      continue; // The tail starts mid-line and the last line may be partial: skip what does not parse.
    }
    const content = line.message?.content;
    if (typeof content === 'string') {
      const match = /<tool-use-id>([^<]+)<\/tool-use-id>/.exec(content);
      if (content.startsWith('<task-notification>') && match) open.delete(match[1]);
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const block of content.map(record)) {
      if (block?.type === 'tool_use' && typeof block.name === 'string' && typeof block.id === 'string') {
        const input = record(block.input);
        const agent = block.name === 'Agent';
        open.set(block.id, {
          toolUseId: block.id,
          tool: block.name,
          callUuid: typeof line.uuid === 'string' ? line.uuid : '',
          description: agent ? (typeof input?.description === 'string' ? input.description : 'Helper') : block.name,
          agentId: null,
        });
      } else if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const call = open.get(block.tool_use_id);
        const result = record(line.toolUseResult);
        if (call?.tool === 'Agent' && result?.status === 'async_launched' && typeof result.agentId === 'string') call.agentId = result.agentId;
        else open.delete(block.tool_use_id);
      }
    }
  }
  return [...open.values()];
}

/** What a previous run left in a journal: its size, open calls, and whether it ends mid-line. */
export interface PreviousJournal {
  bytes: number;
  open: OpenCall[];
  endsMidLine: boolean;
}

/** Reads the tail of an existing journal, or returns null when there is none. */
export async function readPreviousJournal(file: string): Promise<PreviousJournal | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, RESUME_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const tail = buffer.toString('utf8');
    return { bytes: size, open: findOpenCalls(tail), endsMidLine: length > 0 && !tail.endsWith('\n') };
  } finally {
    await handle.close();
  }
}
