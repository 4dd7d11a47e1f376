/**
 * The team reader over the team fixtures (written from the documented shapes) and real temp folders: rules TF1–TF4,
 * members matched to seats by session id, and no message body anywhere in what it returns.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTeams, type TeamSeat } from './TeamReader';
import { parseInbox, parseTeamFile, shortSummary } from './teamFiles';
import { createTeamsPort } from './index';

const HOME = path.resolve(__dirname, 'fixtures', 'claude-home');
const LEAD: TeamSeat = { seatId: 'claude:lead', personaId: 'p-lead', home: HOME, sessionId: '11111111-aaaa-4000-8000-000000000001', activity: { state: 'working', certain: true, since: null } };
const ADA: TeamSeat = { seatId: 'claude:ada', personaId: 'p-ada', home: HOME, sessionId: '22222222-bbbb-4000-8000-000000000002', activity: { state: 'idle', certain: true, since: null } };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('agent teams', () => {
  it('reads the teams that touch an addressed seat, with members matched to seats by session id', async () => {
    const teams = await readTeams([LEAD, ADA]);
    expect(teams.map((entry) => entry.team.name)).toEqual(['review-crew']);
    const [{ team, folder }] = teams;
    expect(folder).toBe(path.join(HOME, 'teams', 'review-crew'));
    expect(team.leadPersonaId).toBe('p-lead');
    expect(team.members).toEqual([
      { name: 'team-lead', agentId: 'team-lead@review-crew', lead: true, colour: 'blue', seatId: 'claude:lead', personaId: 'p-lead', state: { state: 'working', certain: true, since: null } },
      { name: 'ada', agentId: 'ada@review-crew', lead: false, colour: 'green', seatId: 'claude:ada', personaId: 'p-ada', state: { state: 'idle', certain: true, since: null } },
      { name: 'bo', agentId: 'bo@review-crew', lead: false, colour: 'yellow', seatId: null, personaId: null, state: { state: 'unknown', certain: false, since: null } },
    ]);
  });

  it('gives each message as labels only: sender, recipient, time, summary; never the body', async () => {
    const [{ team }] = await readTeams([LEAD, ADA]);
    expect(team.messages.map(({ from, to, at, summary, fromPersonaId, toPersonaId }) => ({ from, to, at, summary, fromPersonaId, toPersonaId }))).toEqual([
      { from: 'team-lead', to: 'ada', at: '2026-12-02T09:00:00.000Z', summary: 'review the parser change', fromPersonaId: 'p-lead', toPersonaId: 'p-ada' },
      { from: 'ada', to: 'team-lead', at: '2026-12-02T09:03:00.000Z', summary: 'review done: two findings', fromPersonaId: 'p-ada', toPersonaId: 'p-lead' },
      { from: 'ada', to: 'team-lead', at: '2026-12-02T09:04:00.000Z', summary: null, fromPersonaId: 'p-ada', toPersonaId: 'p-lead' },
      { from: 'team-lead', to: 'ada', at: '2026-12-02T09:05:00.000Z', summary: null, fromPersonaId: 'p-lead', toPersonaId: 'p-ada' },
      { from: 'bo', to: 'ada', at: '2026-12-02T09:07:00.000Z', summary: 'a summary that runs on far longer than sixty characters and…', fromPersonaId: null, toPersonaId: 'p-ada' },
    ]);
    expect(new Set(team.messages.map((message) => message.id)).size).toBe(team.messages.length);
    expect(JSON.stringify(team)).not.toContain('BODY-SECRET');
    expect(JSON.stringify(team)).not.toContain('idle_notification');
  });

  it('Rules TF1 and TF2: skips and notes what it cannot read, and keeps the rest', async () => {
    const [{ team }] = await readTeams([LEAD]);
    expect(team.notes).toEqual([
      expect.stringMatching(/^The inbox of bo was not read: the inbox of bo is not JSON/),
      '2 inbox entries were skipped (no sender or time).',
      '1 team member entry was skipped (no name).',
    ]);
    expect(parseTeamFile('{"members": 3}', 'x')).toEqual({ ok: false, reason: 'the team file of x has no members list.' });
    expect(parseTeamFile('[]', 'x')).toMatchObject({ ok: false });
    expect(parseInbox('{}', 'ada')).toEqual({ ok: false, reason: 'the inbox of ada is not a list.' });
  });

  it('Rule TF3: a summary is one line of at most 60 characters, only when the message carries one', () => {
    expect(shortSummary(undefined)).toBeNull();
    expect(shortSummary('   ')).toBeNull();
    expect(shortSummary('  two\n lines ')).toBe('two lines');
    expect(Array.from(shortSummary('é'.repeat(80))!)).toHaveLength(60);
  });

  it('Rule TF4: keeps the 50 most recent messages of a team, oldest first', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-teams-'));
    dirs.push(home);
    const folder = path.join(home, 'teams', 'busy');
    await mkdir(path.join(folder, 'inboxes'), { recursive: true });
    await writeFile(path.join(folder, 'config.json'), JSON.stringify({ name: 'busy', leadAgentId: 'team-lead@busy', leadSessionId: 's-lead', members: [{ agentId: 'team-lead@busy', name: 'team-lead' }, { agentId: 'x@busy', name: 'x' }] }));
    const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 9, minute)).toISOString();
    await writeFile(path.join(folder, 'inboxes', 'x.json'), JSON.stringify(Array.from({ length: 40 }, (_, index) => ({ from: 'team-lead', text: 't', timestamp: at(index * 2), read: false }))));
    await writeFile(path.join(folder, 'inboxes', 'team-lead.json'), JSON.stringify(Array.from({ length: 40 }, (_, index) => ({ from: 'x', text: 't', timestamp: at(index * 2 + 1), read: false }))));
    const [{ team }] = await readTeams([{ seatId: 's', personaId: 'p', home, sessionId: 's-lead', activity: { state: 'idle', certain: true, since: null } }]);
    expect(team.messages).toHaveLength(50);
    expect(team.messages[0].at).toBe(at(30));
    expect(team.messages[49].at).toBe(at(79));
    expect(await readTeams([{ seatId: 's', personaId: 'p', home, sessionId: 'someone-else', activity: { state: 'idle', certain: true, since: null } }])).toEqual([]);
  });
});

describe('the teams port', () => {
  it("watches each Claude home's team folder, following the homes it is asked with", () => {
    const port = createTeamsPort();
    const address = (harness: 'claude' | 'codex', home: string) => ({ harness, home, sessionId: 's', path: null });
    expect(port.watchPaths([address('claude', '/a'), address('claude', '/a'), address('codex', '/c')])).toEqual([path.join('/a', 'teams')]);
    expect(port.watchPaths([address('claude', '/a'), address('claude', '/a')])).toEqual([path.join('/a', 'teams')]);
    expect(port.watchPaths([address('claude', '/a'), address('claude', '/b')])).toEqual([path.join('/a', 'teams'), path.join('/b', 'teams')]);
    expect(port.watchPaths([])).toEqual([]);
  });
});
