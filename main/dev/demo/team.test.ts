/** The demo team through the real team reader: members are the demo's sessions, messages walk lead ↔ teammates. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTeams } from '../../sources/teams/TeamReader';
import { startDemo } from './simulator';
import { DEMO_TEAM, startDemoTeam } from './team';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the demo team', () => {
  it('is led by the first session, holds the next two, and sends labelled messages between them', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-demo-team-'));
    dirs.push(home);
    const demo = await startDemo({ home, agents: 4, seed: 7, speed: 0 });
    // One second between messages, as the running demo spaces them; three sends in one millisecond would tie.
    let clock = Date.parse('2026-01-01T09:00:00Z');
    const team = await startDemoTeam({ claudeHome: demo.claudeHome, sessions: demo.sessions, intervalMs: 0, now: () => (clock += 1000) });
    expect(team).not.toBeNull();
    for (let index = 0; index < 3; index++) await team!.send();
    await team!.stop();
    await demo.stop();
    const seats = demo.sessions.map((session, index) => ({ seatId: `seat-${index}`, personaId: `p-${index}`, home: demo.claudeHome, sessionId: session.sessionId, activity: { state: 'idle' as const, certain: true, since: null } }));
    const [found] = await readTeams(seats);
    expect(found.team.name).toBe(DEMO_TEAM);
    expect(found.team.leadPersonaId).toBe('p-0');
    expect(found.team.members.map((member) => member.personaId)).toEqual(['p-0', 'p-1', 'p-2']);
    expect(found.team.messages.map((message) => [message.fromPersonaId, message.toPersonaId])).toEqual([
      ['p-0', 'p-1'],
      ['p-1', 'p-0'],
      ['p-0', 'p-2'],
    ]);
    expect(found.team.messages.every((message) => message.summary !== null)).toBe(true);
    expect(found.team.notes).toEqual([]);
  });

  it('needs a second session', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-demo-team-'));
    dirs.push(home);
    const demo = await startDemo({ home, agents: 1, seed: 7, speed: 0 });
    expect(await startDemoTeam({ claudeHome: demo.claudeHome, sessions: demo.sessions, intervalMs: 0 })).toBeNull();
    await demo.stop();
  });
});
