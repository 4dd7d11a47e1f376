/** `agents list --json` with each persona's terminal (issue 39): one tmux listing and one process scan for all. */
import type { Persona } from '../../../shared/schemas';
import type { TerminalRef } from '../../../shared/terminal';
import { TerminalAdapter } from '../../core/terminal/TerminalAdapter';

/**
 * Each persona's record (as `record` shapes it) with its terminal, null when it has none; `env` names PATH and the tmux
 * server (an env without PATH finds no tmux, so nothing is asked of any server).
 */
export async function withTerminals<R extends object>(personas: readonly Persona[], env: NodeJS.ProcessEnv, record: (persona: Persona) => R): Promise<(R & { terminal: TerminalRef | null })[]> {
  const located = personas.length > 0 ? await new TerminalAdapter(env).locate(personas) : new Map();
  return personas.map((persona) => {
    const match = located.get(persona.id);
    return { ...record(persona), terminal: match?.ok ? match.terminal : null };
  });
}
