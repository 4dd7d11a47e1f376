import { describe, expect, it } from 'vitest';
import { elapsedPhrase, needsYouQueue } from './activity';
import { ActivitySchema, type Activity, type Persona, type Seat } from './schemas';

const persona = (id: string, name: string): Persona => ({ id, name, appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: 'a', updatedAt: 'a' });
const seat = (id: string, personaId: string, activity: Activity): Seat => ({ id, harness: 'claude', personaId, address: { harness: 'claude', home: '/h', sessionId: id }, activity });

describe('the activity schema', () => {
  it('has why exactly when the state is needs-you, and caps the label at 80 characters', () => {
    expect(ActivitySchema.safeParse({ state: 'needs-you', why: 'question', certain: true, since: null }).success).toBe(true);
    expect(ActivitySchema.safeParse({ state: 'needs-you', certain: true, since: null }).success).toBe(false);
    expect(ActivitySchema.safeParse({ state: 'working', why: 'question', certain: true, since: null }).success).toBe(false);
    expect(ActivitySchema.safeParse({ state: 'working', certain: true, since: null, label: 'x'.repeat(81) }).success).toBe(false);
  });
});

describe('the needs-you queue', () => {
  it('lists only seats that need the owner, oldest since first, unknown times last', () => {
    const snapshot = {
      personas: [persona('p1', 'Ada'), persona('p2', 'Bo'), persona('p3', 'Cy'), persona('p4', 'Di')],
      seats: [
        seat('s1', 'p1', { state: 'needs-you', why: 'turn-done', certain: false, since: '2026-05-01T10:05:00.000Z' }),
        seat('s2', 'p2', { state: 'working', certain: true, since: '2026-05-01T10:00:00.000Z' }),
        seat('s3', 'p3', { state: 'needs-you', why: 'approval', certain: false, since: null, label: 'Bash' }),
        seat('s4', 'p4', { state: 'needs-you', why: 'question', certain: true, since: '2026-05-01T10:01:00.000Z', label: 'AskUserQuestion' }),
      ],
    };
    expect(needsYouQueue(snapshot).map((entry) => [entry.persona, entry.why, entry.label])).toEqual([
      ['Di', 'question', 'AskUserQuestion'],
      ['Ada', 'turn-done', null],
      ['Cy', 'approval', 'Bash'],
    ]);
  });

  it('says how long in whole units, and nothing for an unknown time', () => {
    const now = Date.parse('2026-05-01T12:00:00.000Z');
    expect(elapsedPhrase('2026-05-01T11:59:48.000Z', now)).toBe('12 s');
    expect(elapsedPhrase('2026-05-01T11:56:00.000Z', now)).toBe('4 min');
    expect(elapsedPhrase('2026-05-01T09:00:00.000Z', now)).toBe('3 h');
    expect(elapsedPhrase(null, now)).toBe('');
  });

  it('says nothing for a time that is not believable: garbage, 1970 or year 9999 (never "0 s", issue 36)', () => {
    const now = Date.parse('2026-05-01T12:00:00.000Z');
    for (const since of ['nope', '1970-01-01T00:00:00.000Z', '9999-12-31T00:00:00.000Z']) expect(elapsedPhrase(since, now)).toBe('');
  });
});
