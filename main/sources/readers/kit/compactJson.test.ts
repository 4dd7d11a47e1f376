// Bounded summaries (issue 36): a tool input nested 10,000 deep or very wide is summarised without a stack overflow.
import { describe, expect, it } from 'vitest';
import { summarizeInput } from '../claude/replayEntries';
import { compactJson } from './compactJson';

function deep(levels: number): unknown {
  let node: unknown = 'bottom';
  for (let level = 0; level < levels; level++) node = { inner: node };
  return node;
}

describe('compact JSON', () => {
  it('a 10,000-deep input is summarised to a bounded line (the replay no longer fails)', () => {
    const line = summarizeInput({ nested: deep(10_000) });
    expect(line.length).toBeLessThan(1_000);
    expect(line).toContain('…');
  });
  it('a wide input stops at the bound; a small one is plain JSON', () => {
    expect(compactJson({ list: Array.from({ length: 100_000 }, (_, index) => index) }, 200).length).toBeLessThan(220);
    expect(compactJson({ a: 1, b: [true, null, 'x'] }, 200)).toBe('{"a":1,"b":[true,null,"x"]}');
  });
});
