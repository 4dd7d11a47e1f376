/**
 * A demo Codex seat: a rollout in the real format (`<codex home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, see
 * ../shared/formats/codex.md §3–4) appended one turn step at a time, so the real Codex reader finds and reads it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TurnStep } from './turnScript';
import { codexUsageLines } from './usageRecords';

/** A Codex session id (UUIDv7 shape) from a demo uuid: the time-ordered prefix Codex writes. */
export function codexThreadId(uuid: string): string {
  return `019d${uuid.slice(4, 14)}7${uuid.slice(15)}`;
}

/** The rollout file name Codex writes for a session created at `atMs` (its local clock; UTC here). */
export function rolloutName(id: string, atMs: number): { day: string[]; name: string } {
  const iso = new Date(atMs).toISOString();
  return { day: [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)], name: `rollout-${iso.slice(0, 19).replace(/:/g, '-')}-${id}.jsonl` };
}

/** The existing rollout of a session under `home`, if a previous run wrote one (a restart continues it). */
async function findRollout(home: string, id: string): Promise<string | null> {
  const suffix = `-${id}.jsonl`;
  const walk = async (folder: string, depth: number): Promise<string | null> => {
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      return null;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (depth < 3 && entry.isDirectory()) {
        const found = await walk(full, depth + 1);
        if (found) return found;
      } else if (depth === 3 && entry.isFile() && entry.name.endsWith(suffix)) return full;
    }
    return null;
  };
  return walk(path.join(home, 'sessions'), 0);
}

const line = (timestamp: string, type: string, payload: Record<string, unknown>) => `${JSON.stringify({ timestamp, type, payload })}\n`;

/** The rollout lines of one turn step at `atMs`; `turn` numbers the turns of the seat. */
export function codexStepLines(step: TurnStep, context: { cwd: string; turn: number; call: number }, atMs: number): string[] {
  const at = new Date(atMs).toISOString();
  const turnId = `turn-${context.turn}`;
  switch (step.kind) {
    case 'prompt':
      return [
        line(at, 'event_msg', { type: 'task_started', turn_id: turnId }),
        line(at, 'turn_context', { turn_id: turnId, cwd: context.cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5.1-codex', summary: 'auto' }),
        line(at, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: step.text }] }),
        line(at, 'event_msg', { type: 'user_message', message: step.text }),
      ];
    case 'tool': {
      const callId = `call_demo${String(context.call).padStart(8, '0')}`;
      return [
        line(at, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.note }] }),
        line(at, 'response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: step.command, workdir: context.cwd }), call_id: callId }),
        line(at, 'response_item', { type: 'function_call_output', call_id: callId, output: 'Process exited with code 0' }),
        line(at, 'event_msg', { type: 'token_count', info: null }),
      ];
    }
    case 'end':
      return [
        line(at, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.note }] }),
        line(at, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: step.note }),
      ];
    case 'rest':
      return [];
    default:
      return step satisfies never;
  }
}

/** One demo Codex session's rollout. */
export class CodexSeat {
  private turn = 0;
  private call = 0;

  private constructor(
    readonly id: string,
    readonly cwd: string,
    readonly path: string,
  ) {}

  /** Opens the seat's rollout: the one a previous run wrote, else a new file with its header line. */
  static async open(home: string, id: string, cwd: string, createdMs: number): Promise<CodexSeat> {
    const existing = await findRollout(home, id);
    if (existing) return new CodexSeat(id, cwd, existing);
    const { day, name } = rolloutName(id, createdMs);
    const folder = path.join(home, 'sessions', ...day);
    await fs.mkdir(folder, { recursive: true });
    const file = path.join(folder, name);
    const at = new Date(createdMs).toISOString();
    await fs.writeFile(file, line(at, 'session_meta', { id, timestamp: at, cwd, originator: 'codex_cli_rs', cli_version: '0.121.0', source: 'cli' }));
    return new CodexSeat(id, cwd, file);
  }

  /** Appends one step's lines. */
  async write(step: TurnStep, atMs: number): Promise<void> {
    if (step.kind === 'prompt') this.turn += 1;
    if (step.kind === 'tool') this.call += 1;
    const lines = codexStepLines(step, { cwd: this.cwd, turn: this.turn, call: this.call }, atMs);
    lines.push(...codexUsageLines(this.id, step, atMs));
    if (lines.length > 0) await fs.appendFile(this.path, lines.join(''));
  }
}
