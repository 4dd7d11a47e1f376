/** Envelope rules E1–E4 and the path an envelope takes. */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, Team } from '../../shared/schemas';
import { ENVELOPE_WALK_MS, EnvelopeTracker, envelopePoint } from './envelopes';

function message(id: string, minute: number, from = 'p-lead', to = 'p-mate'): AgentMessage {
  return { id, team: 't', from: 'team-lead', to: 'mate', at: `2026-12-02T09:${String(minute).padStart(2, '0')}:00.000Z`, summary: 'hello', fromPersonaId: from, toPersonaId: to };
}

function teams(...messages: AgentMessage[]): Team[] {
  return [{ name: 't', leadPersonaId: 'p-lead', members: [], messages, notes: [] }];
}

const present = (id: string) => id === 'p-lead' || id === 'p-mate';

describe('envelopes', () => {
  it('Rule E1: the first snapshot primes; only later messages start envelopes', () => {
    const tracker = new EnvelopeTracker();
    expect(tracker.sync(teams(message('a', 1)), present, false)).toEqual([]);
    const started = tracker.sync(teams(message('a', 1), message('b', 2)), present, false);
    expect(started.map((envelope) => [envelope.id, envelope.walks, envelope.progress])).toEqual([['b', true, 0]]);
    expect(tracker.sync(teams(message('a', 1), message('b', 2)), present, false)).toEqual([]);
  });

  it('Rule E2: a message from or to someone not in the world is delivered without walking', () => {
    const tracker = new EnvelopeTracker();
    tracker.sync([], present, false);
    const started = tracker.sync(teams(message('x', 1, 'p-lead', null as unknown as string), message('y', 2, 'p-gone', 'p-mate')), present, false);
    expect(started.map((envelope) => envelope.walks)).toEqual([false, false]);
    expect(tracker.walking).toEqual([]);
    expect(tracker.delivered.map((envelope) => envelope.id)).toEqual(['x', 'y']);
  });

  it('Rule E3: an envelope arrives after the walk time, or at once with reduced motion', () => {
    const tracker = new EnvelopeTracker();
    tracker.sync([], present, false);
    tracker.sync(teams(message('a', 1)), present, false);
    expect(tracker.advance(ENVELOPE_WALK_MS / 2)).toEqual([]);
    expect(tracker.walking[0].progress).toBeCloseTo(0.5);
    expect(tracker.advance(ENVELOPE_WALK_MS).map((envelope) => envelope.id)).toEqual(['a']);
    expect(tracker.walking).toEqual([]);
    const calm = new EnvelopeTracker();
    calm.sync([], present, true);
    expect(calm.sync(teams(message('b', 1)), present, true)[0]).toMatchObject({ walks: true, progress: 1 });
    expect(calm.walking).toEqual([]);
  });

  it('Rule E4: a burst walks only its three newest messages', () => {
    const tracker = new EnvelopeTracker();
    tracker.sync([], present, false);
    const started = tracker.sync(teams(...[5, 1, 4, 2, 3].map((minute) => message(`m${minute}`, minute))), present, false);
    expect(started.filter((envelope) => envelope.walks).map((envelope) => envelope.id)).toEqual(['m3', 'm4', 'm5']);
  });

  it('follows a low arc from sender to recipient', () => {
    const from = { x: 0, y: 100 };
    const to = { x: 200, y: 100 };
    expect(envelopePoint(from, to, 0)).toEqual(from);
    expect(envelopePoint(from, to, 1)).toEqual({ x: 200, y: 100 });
    const middle = envelopePoint(from, to, 0.5);
    expect(middle.x).toBe(100);
    expect(middle.y).toBeLessThan(100);
  });

  it('messages between sessions outside a team walk the same way as team messages', () => {
    const tracker = new EnvelopeTracker();
    tracker.sync(undefined, present, false, []);
    const between = { ...message('s', 3), team: null };
    const started = tracker.sync(teams(message('a', 1)), present, false, [between]);
    expect(started.map((envelope) => [envelope.id, envelope.team, envelope.walks])).toEqual([['a', 't', true], ['s', null, true]]);
    expect(tracker.sync(teams(message('a', 1)), present, false, [between])).toEqual([]);
  });
});

