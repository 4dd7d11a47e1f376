import { describe, expect, it } from 'vitest';
import { BUBBLE_GLYPHS, BUBBLE_STYLE, bubbleKind } from './bubbles';

describe('speech bubbles', () => {
  it('shows one bubble per needs-you reason, dimmed approval when inferred, none while working or unknown', () => {
    const needs = (why: 'question' | 'plan' | 'approval' | 'turn-done' | 'interrupted' | 'error', certain = true) => bubbleKind({ state: 'needs-you', why, certain, since: null });
    expect([needs('question'), needs('plan'), needs('approval'), needs('approval', false), needs('turn-done'), needs('interrupted'), needs('error')]).toEqual([
      'question', 'question', 'approval', 'approval-uncertain', 'turn-done', 'interrupted', 'error',
    ]);
    expect(bubbleKind({ state: 'working', certain: true, since: null })).toBeNull();
    expect(bubbleKind({ state: 'unknown', certain: false, since: null })).toBeNull();
    expect(bubbleKind({ state: 'idle', certain: true, since: null })).toBe('idle');
    expect(BUBBLE_STYLE['approval-uncertain'].alpha).toBeLessThan(BUBBLE_STYLE.approval.alpha);
    for (const style of Object.values(BUBBLE_STYLE)) for (const glyph of style.glyphs) expect(BUBBLE_GLYPHS[glyph]).toHaveLength(5);
  });
});
