import { describe, expect, it } from 'vitest';
import { PHASE_GROUPS, phaseFrames, phaseGroup } from './phase';

describe('sprite phase groups', () => {
  it('puts an id in the same group every time, and spreads many ids over both', () => {
    const ids = Array.from({ length: 400 }, (_, index) => `persona-${index.toString(36)}-${index * 7919}`);
    const groups = ids.map(phaseGroup);
    expect(ids.map(phaseGroup)).toEqual(groups);
    for (let group = 0; group < PHASE_GROUPS; group += 1) {
      const share = groups.filter((value) => value === group).length / ids.length;
      expect(share).toBeGreaterThan(0.35);
      expect(share).toBeLessThan(0.65);
    }
  });

  it('turns each group at the sprite cadence, half a sprite frame apart: every 50 ms one group turns', () => {
    const out: number[] = [];
    const turns: number[][] = [];
    let previous = [...phaseFrames(0, 100, out)];
    for (let clock = 10; clock <= 400; clock += 10) {
      const now = [...phaseFrames(clock, 100, out)];
      const turned = now.flatMap((frame, group) => (frame !== previous[group] ? [group] : []));
      if (turned.length > 0) turns.push([clock, ...turned]);
      previous = now;
    }
    expect(turns).toEqual([
      [50, 1], [100, 0], [150, 1], [200, 0], [250, 1], [300, 0], [350, 1], [400, 0],
    ]);
    // The array given is the one filled (no allocation per frame).
    expect(phaseFrames(0, 100, out)).toBe(out);
  });
});
