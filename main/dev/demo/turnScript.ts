/**
 * The turn cycle the demo's Codex and OpenCode seats follow, one step at a time: an owner prompt opens a turn, a few
 * tool calls and notes follow, the turn ends, and the seat rests a while before the next prompt. Pure: the writers
 * turn each step into their harness's own records.
 */
import { ASSISTANT_LINES, COMMANDS, USER_PROMPTS } from './prose';
import { pick, type Random } from './random';

/** One step of a demo turn. */
export type TurnStep =
  | { kind: 'prompt'; text: string }
  | { kind: 'tool'; command: string; note: string }
  | { kind: 'end'; note: string }
  | { kind: 'rest' };

/** Where a seat is in its cycle. */
export interface TurnCycle {
  /** Tool steps left in the open turn; null when no turn is open. */
  toolsLeft: number | null;
  /** Quiet steps left before the next prompt. */
  restLeft: number;
}

/** A fresh cycle that starts with a prompt. */
export function createTurnCycle(): TurnCycle {
  return { toolsLeft: null, restLeft: 0 };
}

/** The next step, and the cycle advanced past it. */
export function nextTurnStep(cycle: TurnCycle, random: Random): TurnStep {
  if (cycle.toolsLeft === null) {
    if (cycle.restLeft > 0) {
      cycle.restLeft -= 1;
      return { kind: 'rest' };
    }
    cycle.toolsLeft = 2 + Math.floor(random() * 4);
    return { kind: 'prompt', text: pick(random, USER_PROMPTS) };
  }
  if (cycle.toolsLeft > 0) {
    cycle.toolsLeft -= 1;
    return { kind: 'tool', command: pick(random, COMMANDS), note: pick(random, ASSISTANT_LINES) };
  }
  cycle.toolsLeft = null;
  cycle.restLeft = 2 + Math.floor(random() * 6);
  return { kind: 'end', note: pick(random, ASSISTANT_LINES) };
}
