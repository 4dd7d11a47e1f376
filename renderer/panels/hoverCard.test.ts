import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../shared/schemas';
import { hoverCardFacts, sincePhrase, uncertaintyNote } from './hoverCard';

function fleet(usage?: FleetSnapshot['seats'][number]['usage']): FleetSnapshot {
  return {
    cursor: 1,
    personas: [{ id: 'p', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role: 'builder', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }],
    seats: [{ id: 's', harness: 'codex', personaId: 'p', address: { harness: 'codex', home: '/h', sessionId: 's' }, activity: { state: 'working', certain: true, since: null }, ...(usage ? { usage } : {}) }],
    stations: [],
  };
}

describe('the hover card', () => {
  it('says a since within the hour as a duration and beyond it as a clock time', () => {
    const now = new Date(2026, 4, 1, 14, 30, 0).getTime();
    expect(sincePhrase(new Date(now - 3 * 60_000).toISOString(), now)).toBe('for 3 min');
    expect(sincePhrase(new Date(2026, 4, 1, 12, 2, 0).toISOString(), now)).toBe('since 12:02');
    expect(sincePhrase(null, now)).toBe('since unknown');
    // Issue 36: a time that is garbage or lies in year 9999 is unknown, never "for 0 s" or "since nope".
    expect(sincePhrase('nope', now)).toBe('since unknown');
    expect(sincePhrase('9999-12-31T00:00:00.000Z', now)).toBe('since unknown');
  });

  it('notes an inferred activity and says nothing for a recorded one', () => {
    expect(uncertaintyNote({ state: 'needs-you', why: 'approval', certain: false, since: null })).toMatch(/long-running command looks the same as a permission prompt/);
    expect(uncertaintyNote({ state: 'needs-you', why: 'turn-done', certain: false, since: null })).toMatch(/^inferred/);
    expect(uncertaintyNote({ state: 'needs-you', why: 'approval', certain: true, since: null })).toBeNull();
    expect(uncertaintyNote({ state: 'working', certain: true, since: null })).toBeNull();
  });

  it('shows the seat\'s model, context used / window, session totals and cost, and says unknown without usage', () => {
    const usage = { context: { used: 190_000, window: 200_000, fill: 0.95 }, totals: { input: 1_000_000, output: 200_000, cacheRead: 0, cacheWrite: 0 }, partial: true, model: 'model-x', cost: { usd: 3.41, estimated: true }, skipped: 1 };
    const facts = hoverCardFacts(fleet(usage), 'p', 0)!;
    expect(facts.contextLevel).toBe('alarm');
    expect(facts.usage).toMatchObject({ model: 'model model-x', context: 'context 190k / 200k (95 %)', cost: 'cost ≥$3.41 est.', skipped: '1 usage record skipped as malformed' });
    expect(facts.usage.totals).toMatch(/^session ≥1\.2M tok /);
    const unknown = hoverCardFacts(fleet(), 'p', 0)!;
    expect(unknown.contextLevel).toBe('unknown');
    expect(unknown.usage).toMatchObject({ model: 'model unknown', context: 'context unknown', totals: 'tokens unknown', cost: 'cost unknown' });
  });
});
