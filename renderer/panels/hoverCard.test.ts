import { describe, expect, it } from 'vitest';
import { sincePhrase, uncertaintyNote } from './hoverCard';

describe('the hover card', () => {
  it('says a since within the hour as a duration and beyond it as a clock time', () => {
    const now = new Date(2026, 4, 1, 14, 30, 0).getTime();
    expect(sincePhrase(new Date(now - 3 * 60_000).toISOString(), now)).toBe('for 3 min');
    expect(sincePhrase(new Date(2026, 4, 1, 12, 2, 0).toISOString(), now)).toBe('since 12:02');
    expect(sincePhrase(null, now)).toBe('since unknown');
  });

  it('notes an inferred activity and says nothing for a recorded one', () => {
    expect(uncertaintyNote({ state: 'needs-you', why: 'approval', certain: false, since: null })).toMatch(/long-running command looks the same as a permission prompt/);
    expect(uncertaintyNote({ state: 'needs-you', why: 'turn-done', certain: false, since: null })).toMatch(/^inferred/);
    expect(uncertaintyNote({ state: 'needs-you', why: 'approval', certain: true, since: null })).toBeNull();
    expect(uncertaintyNote({ state: 'working', certain: true, since: null })).toBeNull();
  });
});
