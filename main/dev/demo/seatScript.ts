/**
 * What a demo Codex or OpenCode seat does next, harness-neutral and pure: owner turns with tool calls, native
 * subagents (foreground ones the turn waits for, background ones that report later), and turn ends that wait for the
 * owner the ways that harness records. The writers (`codexChildren.ts`, `openCodeChildren.ts`) turn each event into
 * their harness's own records; the timing of waits is the demo clock's, so a quiet pending call outlasts the 10 s
 * approval rule whatever the step rate.
 */
import { AGENT_LABELS, ASSISTANT_LINES, COMMANDS, FINAL_REPORTS, USER_PROMPTS } from './prose';
import { chance, pick, randomInt, type Random } from './random';

/** How a turn ends and what the seat then waits on the owner for. */
export type SeatWait = 'turn-done' | 'question' | 'approval' | 'interrupted' | 'error';

/** How a demo subagent ends. */
export type ChildEnding = 'completed' | 'failed' | 'interrupted' | 'stopped';

/** One demo subagent's plan. */
export interface ChildPlan {
  /** Its number within the seat (1, 2, …), for names and ids. */
  number: number;
  description: string;
  role: string;
  prompt: string;
  report: string;
  background: boolean;
  ending: ChildEnding;
  /** Steps it works before it ends. */
  stepsLeft: number;
  /** Steps it writes before going quiet (a failing child stops writing early). */
  writesLeft: number;
}

/** One thing a seat did in a step, in order. */
export type SeatEvent =
  | { kind: 'prompt'; text: string }
  /** A turn opened by background results instead of an owner prompt (harnesses whose results start a turn). */
  | { kind: 'results-turn'; children: ChildPlan[] }
  | { kind: 'tool'; command: string; note: string }
  | { kind: 'spawn'; children: ChildPlan[] }
  | { kind: 'child-step'; child: ChildPlan; command: string | null; note: string }
  | { kind: 'child-end'; child: ChildPlan }
  /** The turn still waits on its foreground children; `ended` lists those that ended this step. */
  | { kind: 'await'; ended: ChildPlan[]; pending: ChildPlan[] }
  /** Background children's endings reach the parent. */
  | { kind: 'report'; children: ChildPlan[] }
  | { kind: 'ask'; wait: 'question' | 'approval'; command: string }
  | { kind: 'answer'; wait: 'question' | 'approval' }
  | { kind: 'end'; wait: 'turn-done' | 'interrupted' | 'error'; note: string };

/** What differs between harnesses: the waits they record and how their subagents end. */
export interface SeatStyle {
  /** The turn ends the seat cycles through. */
  waits: readonly SeatWait[];
  foreground: readonly (readonly [ChildEnding, number])[];
  background: readonly (readonly [ChildEnding, number])[];
  /** True when a background result opens a new parent turn (it waits until the parent rests). */
  resultsOpenTurn: boolean;
}

/** Milliseconds a question or approval waits for the owner; past the 10 s approval rule at any step rate. */
const ASK_MS: readonly [number, number] = [14_000, 30_000];
/** Milliseconds a seat rests after a turn that ended (turn-done, interrupted, error) before the next one. */
const REST_MS: readonly [number, number] = [10_000, 30_000];
/** Work steps in a turn. */
const TURN_STEPS: readonly [number, number] = [3, 6];
/** Lifetimes in steps: background children work long (so a board has running jobs), foreground ones briefly. */
const BACKGROUND_STEPS: readonly [number, number] = [14, 32];
const FOREGROUND_STEPS: readonly [number, number] = [2, 5];
/** The first background child of a seat lives long, so a first look already finds it running. */
const FIRST_BACKGROUND_STEPS: readonly [number, number] = [24, 40];
/** Background children one seat keeps running at most. */
const MAX_BACKGROUND = 3;

function draw<T>(random: Random, table: readonly (readonly [T, number])[]): T {
  let roll = random();
  for (const [value, weight] of table) {
    if (roll < weight) return value;
    roll -= weight;
  }
  return table[table.length - 1][0];
}

/** The step machine of one seat. */
export class SeatScript {
  private turn: { workLeft: number; foreground: ChildPlan[] | null; ask: { wait: 'question' | 'approval'; untilMs: number } | null } | null = null;
  private restUntilMs = 0;
  private waitIndex: number;
  private children = 0;
  private readonly background: ChildPlan[] = [];
  private readonly results: ChildPlan[] = [];

  constructor(
    private readonly style: SeatStyle,
    private readonly random: Random,
    /** Where in the wait cycle this seat starts, so seats of one harness show different waits at once. */
    offset: number,
    private readonly roles: readonly string[],
  ) {
    this.waitIndex = offset;
  }

  /** Background children still working. */
  get runningBackground(): number {
    return this.background.length;
  }

  /** The events of one step at `atMs`. */
  step(atMs: number): SeatEvent[] {
    const events: SeatEvent[] = [];
    const endedForeground = this.advanceChildren(events);
    this.parentStep(atMs, events, endedForeground);
    return events;
  }

  private advanceChildren(events: SeatEvent[]): ChildPlan[] {
    const endedForeground: ChildPlan[] = [];
    const working = [...this.background, ...(this.turn?.foreground ?? [])].filter((child) => child.stepsLeft > 0);
    for (const child of working) {
      child.stepsLeft -= 1;
      if (child.stepsLeft === 0) {
        events.push({ kind: 'child-end', child });
        if (child.background) {
          this.background.splice(this.background.indexOf(child), 1);
          this.results.push(child);
        } else endedForeground.push(child);
      } else if (child.writesLeft > 0) {
        child.writesLeft -= 1;
        const tool = chance(this.random, 0.6);
        events.push({ kind: 'child-step', child, command: tool ? pick(this.random, COMMANDS) : null, note: pick(this.random, ASSISTANT_LINES) });
      }
    }
    return endedForeground;
  }

  private parentStep(atMs: number, events: SeatEvent[], endedForeground: ChildPlan[]): void {
    const turn = this.turn;
    if (turn?.ask) {
      // The parent writes nothing while the owner is asked: the pending call stays quiet.
      if (atMs < turn.ask.untilMs) return;
      events.push({ kind: 'answer', wait: turn.ask.wait });
      turn.ask = null;
      turn.workLeft = randomInt(this.random, 1, 2);
      return;
    }
    if (!this.style.resultsOpenTurn && this.results.length > 0) events.push({ kind: 'report', children: this.results.splice(0) });
    if (turn?.foreground) {
      const pending = turn.foreground.filter((child) => child.stepsLeft > 0);
      events.push({ kind: 'await', ended: endedForeground, pending });
      if (pending.length > 0) return;
      const interrupted = turn.foreground.some((child) => child.ending === 'interrupted');
      turn.foreground = null;
      // The owner stopping a foreground subagent stops the whole turn.
      if (interrupted) this.endTurn(atMs, events, 'interrupted');
      return;
    }
    if (!turn) {
      if (atMs < this.restUntilMs) return;
      if (this.style.resultsOpenTurn && this.results.length > 0) events.push({ kind: 'results-turn', children: this.results.splice(0) });
      else events.push({ kind: 'prompt', text: pick(this.random, USER_PROMPTS) });
      const first = this.children === 0;
      this.turn = { workLeft: randomInt(this.random, ...TURN_STEPS), foreground: null, ask: null };
      // A seat's first turn starts a background helper at once, so a first look finds one running.
      if (first) this.spawn(events, 1, true);
      return;
    }
    if (turn.workLeft > 0) {
      turn.workLeft -= 1;
      const roll = this.random();
      if (roll < 0.3 && this.background.length < MAX_BACKGROUND) this.spawn(events, 1, true);
      else if (roll < 0.5) this.spawn(events, randomInt(this.random, 1, 3), false);
      else events.push({ kind: 'tool', command: pick(this.random, COMMANDS), note: pick(this.random, ASSISTANT_LINES) });
      return;
    }
    const wait = this.style.waits[this.waitIndex % this.style.waits.length];
    this.waitIndex += 1;
    if (wait === 'question' || wait === 'approval') {
      turn.ask = { wait, untilMs: atMs + randomInt(this.random, ...ASK_MS) };
      events.push({ kind: 'ask', wait, command: pick(this.random, COMMANDS) });
      return;
    }
    this.endTurn(atMs, events, wait);
  }

  private endTurn(atMs: number, events: SeatEvent[], wait: 'turn-done' | 'interrupted' | 'error'): void {
    events.push({ kind: 'end', wait, note: pick(this.random, ASSISTANT_LINES) });
    this.turn = null;
    this.restUntilMs = atMs + randomInt(this.random, ...REST_MS);
  }

  private spawn(events: SeatEvent[], count: number, background: boolean): void {
    const spawned: ChildPlan[] = [];
    for (let index = 0; index < count; index += 1) {
      const first = this.children === 0;
      this.children += 1;
      const description = pick(this.random, AGENT_LABELS);
      const steps = randomInt(this.random, ...(first ? FIRST_BACKGROUND_STEPS : background ? BACKGROUND_STEPS : FOREGROUND_STEPS));
      const ending = draw(this.random, background ? this.style.background : this.style.foreground);
      spawned.push({
        number: this.children,
        description,
        role: pick(this.random, this.roles),
        prompt: `${description}. Keep the report short and list what you checked.`,
        report: pick(this.random, FINAL_REPORTS),
        background,
        ending,
        stepsLeft: steps,
        writesLeft: ending === 'completed' ? steps : randomInt(this.random, 1, Math.max(1, Math.floor(steps / 2))),
      });
    }
    events.push({ kind: 'spawn', children: spawned });
    if (background) this.background.push(...spawned);
    else if (this.turn) this.turn.foreground = spawned;
  }
}

