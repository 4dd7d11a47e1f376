import { describe, expect, it } from 'vitest';
import { CODEX_STYLE } from './codexChildren';
import { OPENCODE_STYLE } from './openCodeChildren';
import { createRandom } from './random';
import { SeatScript, type SeatEvent } from './seatScript';

/** Runs a script for `steps` steps of 2.5 s and returns each step's time and events. */
function run(style: typeof CODEX_STYLE, seed: number, steps: number) {
  const script = new SeatScript(style, createRandom(seed), 0, ['explorer', 'worker']);
  return Array.from({ length: steps }, (_, index) => {
    const atMs = 1_000_000 + index * 2500;
    return { atMs, events: script.step(atMs) };
  });
}

const kinds = (events: SeatEvent[]) => events.map((event) => event.kind);

describe('the demo seat script', () => {
  it('opens the first turn with a prompt and a background helper, so a first look finds one running', () => {
    const [first] = run(CODEX_STYLE, 3, 1);
    expect(kinds(first.events)).toEqual(['prompt', 'spawn']);
    expect(first.events[1]).toMatchObject({ kind: 'spawn', children: [{ background: true }] });
  });

  it('keeps the parent quiet for more than 10 s while it asks, and answers afterwards', () => {
    const steps = run(CODEX_STYLE, 4, 400);
    const asks = steps.filter((step) => step.events.some((event) => event.kind === 'ask'));
    expect(asks.length).toBeGreaterThan(0);
    for (const ask of asks) {
      const answer = steps.find((step) => step.atMs > ask.atMs && step.events.some((event) => event.kind === 'answer'));
      if (!answer) continue;
      expect(answer.atMs - ask.atMs).toBeGreaterThan(10_000);
      const between = steps.filter((step) => step.atMs > ask.atMs && step.atMs < answer.atMs).flatMap((step) => kinds(step.events));
      // Only the children write meanwhile.
      expect(between.every((kind) => kind === 'child-step' || kind === 'child-end')).toBe(true);
    }
  });

  it('ends a turn only once its foreground helpers ended, and cycles through every wait and ending of its style', () => {
    for (const style of [CODEX_STYLE, OPENCODE_STYLE]) {
      const steps = run(style, 9, 600);
      const waits = new Set<string>();
      const endings = new Set<string>();
      let pendingForeground = 0;
      for (const { events } of steps) {
        for (const event of events) {
          if (event.kind === 'spawn' && !event.children[0].background) pendingForeground = event.children.length;
          if (event.kind === 'await') pendingForeground = event.pending.length;
          if (event.kind === 'end' || event.kind === 'ask') {
            expect(pendingForeground).toBe(0);
            waits.add(event.wait);
          }
          if (event.kind === 'child-end') endings.add(`${event.child.background ? 'background' : 'foreground'}:${event.child.ending}`);
        }
      }
      expect([...waits].sort()).toEqual([...new Set(style.waits)].sort());
      const expected = [...style.foreground.map(([ending]) => `foreground:${ending}`), ...style.background.map(([ending]) => `background:${ending}`)];
      expect([...endings].sort()).toEqual(expected.sort());
    }
  });

  it('reports background results inside turns for Codex and opens a turn with them for OpenCode', () => {
    const codex = run(CODEX_STYLE, 2, 300).flatMap((step) => kinds(step.events));
    expect(codex).toContain('report');
    expect(codex).not.toContain('results-turn');
    const openCode = run(OPENCODE_STYLE, 2, 300).flatMap((step) => kinds(step.events));
    expect(openCode).toContain('results-turn');
    expect(openCode).not.toContain('report');
  });
});
