import { describe, expect, it } from 'vitest';
import type { ReplayEntry } from '../../shared/schemas';
import { mergeNewest, prependOlder } from './replayLines';

const line = (text: string): ReplayEntry => ({ at: null, role: 'assistant', text });

describe('replay lines', () => {
  it('a first page takes keys from 0', () => {
    expect(mergeNewest([], [line('a'), line('b')]).lines).toEqual([{ key: 0, entry: line('a') }, { key: 1, entry: line('b') }]);
  });

  it('a newer page that overlaps appends only the new lines and keeps the old keys and objects', () => {
    const first = mergeNewest([], [line('a'), line('b'), line('c')]).lines;
    const merged = mergeNewest(first, [line('b'), line('c'), line('d')]);
    expect(merged.appended).toBe(1);
    expect(merged.restarted).toBe(false);
    expect(merged.lines.slice(0, 3)).toEqual(first);
    expect(merged.lines[3]).toEqual({ key: 3, entry: line('d') });
  });

  it('an unchanged page returns the same array (nothing to reconcile)', () => {
    const first = mergeNewest([], [line('a'), line('b')]).lines;
    expect(mergeNewest(first, [line('a'), line('b')]).lines).toBe(first);
  });

  it('repeated lines overlap by the longest match', () => {
    const first = mergeNewest([], [line('x'), line('x')]).lines;
    const merged = mergeNewest(first, [line('x'), line('x'), line('y')]);
    expect(merged.lines.map((entry) => entry.entry.text)).toEqual(['x', 'x', 'y']);
  });

  it('a page with nothing in common restarts from that page with fresh keys', () => {
    const first = mergeNewest([], [line('a')]).lines;
    const merged = mergeNewest(first, [line('q'), line('r')]);
    expect(merged.restarted).toBe(true);
    expect(merged.lines.map((entry) => entry.key)).toEqual([1, 2]);
  });

  it('older pages get keys below the first line', () => {
    const lines = prependOlder(mergeNewest([], [line('c')]).lines, [line('a'), line('b')]);
    expect(lines.map((entry) => [entry.key, entry.entry.text])).toEqual([[-2, 'a'], [-1, 'b'], [0, 'c']]);
  });
});
