/** The team part of an agent's card and the world's team badge: who is in which team, and each member's state. */
import { describe, expect, it } from 'vitest';
import { UNKNOWN_ACTIVITY } from '../../shared/activity';
import type { Team } from '../../shared/schemas';
import { teamsByPersona } from '../world/model';
import { teamCards } from './teamList';

const working = { state: 'working' as const, certain: true, since: '2026-01-01T00:00:00Z' };
const team: Team = {
  name: 'crew',
  leadPersonaId: 'p-lead',
  members: [
    { name: 'team-lead', agentId: 'team-lead@crew', lead: true, colour: 'blue', seatId: 's-lead', personaId: 'p-lead', state: working },
    { name: 'ada', agentId: 'ada@crew', lead: false, colour: 'green', seatId: 's-ada', personaId: 'p-ada', state: { state: 'idle', certain: false, since: null } },
    { name: 'in-process', agentId: 'in-process@crew', lead: false, colour: null, seatId: null, personaId: null, state: UNKNOWN_ACTIVITY },
  ],
  messages: [],
  notes: [],
};

describe('teams in the card and the world', () => {
  it('lists every member with its own seat\'s state, and "not opened" for a member without a seat', () => {
    expect(teamCards({ teams: [team] }, 'p-ada')).toEqual([
      {
        name: 'crew',
        leads: false,
        members: [
          { name: 'team-lead', lead: true, state: 'working', personaId: 'p-lead', self: false },
          { name: 'ada', lead: false, state: 'idle', personaId: 'p-ada', self: true },
          { name: 'in-process', lead: false, state: 'not opened', personaId: null, self: false },
        ],
      },
    ]);
    expect(teamCards({ teams: [team] }, 'p-lead')[0].leads).toBe(true);
    expect(teamCards({ teams: [team] }, 'p-other')).toEqual([]);
    expect(teamCards({}, 'p-ada')).toEqual([]);
  });

  it('badges the lead and the members that are agents here, and no one else', () => {
    expect(Object.fromEntries(teamsByPersona({ teams: [team] }))).toEqual({ 'p-lead': { name: 'crew', lead: true }, 'p-ada': { name: 'crew', lead: false } });
    expect(teamsByPersona(null).size).toBe(0);
  });
});
