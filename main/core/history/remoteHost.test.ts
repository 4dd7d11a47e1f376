/** History events of a remote agent (ids `@<host>:…`, recorded from the merged world) name their host (issue 42). */
import { describe, expect, it } from 'vitest';
import { eventOf } from './queries';

const at = Date.parse('2026-01-01T10:00:00.000Z');

describe('history events name the host of a remote agent', () => {
  it('adds `host` for a remote seat or persona, and nothing for a local one', () => {
    const remote = eventOf({ t: 'activity', at, seat: '@build:claude:s1', persona: '@build:p_abc', state: 'needs-you', why: 'question', certain: true, label: null, since: at });
    expect(remote).toMatchObject({ type: 'activity', seatId: '@build:claude:s1', host: 'build' });
    const reply = eventOf({ t: 'reply', at, persona: '@lab:p_xyz' } as Parameters<typeof eventOf>[0]);
    expect(reply).toMatchObject({ type: 'reply.sent', personaId: '@lab:p_xyz', host: 'lab' });
    const local = eventOf({ t: 'activity', at, seat: 'claude:s1', persona: 'p_abc', state: 'working', why: null, certain: true, label: null, since: at });
    expect(local).not.toHaveProperty('host');
  });
});
