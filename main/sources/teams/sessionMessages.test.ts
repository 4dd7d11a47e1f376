/**
 * Messages between sessions the owner opened, over journals written from the documented shapes: rules SM1–SM5, the
 * Claude reader giving the facts from the same pass as its projection, and no body anywhere.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Team } from '../../../shared/schemas';
import { FleetService } from '../../core/fleet/FleetService';
import { PersonaService } from '../../core/personas/PersonaService';
import { createClaudeReader } from '../readers/claude/reader';
import { escapeCwd } from '../readers/claude/locate';
import { crossSessionMessages, parseMessageLine, type MessageSeat, type SessionMessageFact } from './sessionMessages';

const FIXTURES = path.resolve(__dirname, 'fixtures', 'session-messages');
const ADA_SESSION = 'aaaaaaaa-0000-4000-8000-00000000000a';
const BEA_SESSION = 'bbbbbbbb-0000-4000-8000-00000000000b';

async function facts(name: string): Promise<SessionMessageFact[]> {
  const text = await readFile(path.join(FIXTURES, name), 'utf8');
  return text.split('\n').flatMap((line) => parseMessageLine(line));
}

async function seats(): Promise<MessageSeat[]> {
  return [
    { seatId: 'claude:ada', personaId: 'p-ada', name: 'Ada', sessionId: ADA_SESSION, facts: await facts('sender.jsonl') },
    { seatId: 'claude:bea', personaId: 'p-bea', name: 'Bea', sessionId: BEA_SESSION, facts: await facts('recipient.jsonl') },
  ];
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('messages between sessions', () => {
  it('Rule SM1: a SendMessage call is a sent message with its recipient and summary; a call without a recipient is skipped', async () => {
    expect(await facts('sender.jsonl')).toEqual([
      { kind: 'sent', id: 'toolu_send_by_name', at: '2026-12-02T10:01:00.000Z', to: 'Bea', summary: 'schema change is merged, please rebase' },
      { kind: 'sent', id: 'toolu_send_by_session', at: '2026-12-02T10:02:00.000Z', to: BEA_SESSION, summary: null },
      { kind: 'sent', id: 'toolu_send_nobody', at: '2026-12-02T10:03:00.000Z', to: 'someone-not-opened', summary: 'to a session that is not a seat' },
      { kind: 'sent', id: 'toolu_send_long', at: '2026-12-02T10:05:00.000Z', to: '@bea@crew', summary: 'a summary that is much longer than sixty characters and kee…' },
    ]);
  });

  it('Rule SM2: a message that opens with a teammate-message tag is a receipt; only the tag\'s attributes are read', async () => {
    expect(await facts('recipient.jsonl')).toEqual([
      { kind: 'received', id: 'r-u1', at: '2026-12-02T10:01:05.000Z', from: 'Ada', summary: 'schema change is merged, please rebase' },
      { kind: 'received', id: 'r-u2', at: '2026-12-02T10:30:00.000Z', from: 'ada', summary: null },
    ]);
  });

  it('Rules SM3–SM4: only messages between addressed seats are shown, a receipt of a call in view only once', async () => {
    const messages = crossSessionMessages(await seats(), []);
    expect(messages.map(({ id, from, to, at, summary, team, fromPersonaId, toPersonaId }) => ({ id, from, to, at, summary, team, fromPersonaId, toPersonaId }))).toEqual([
      { id: 'session:claude:ada:toolu_send_by_name', from: 'Ada', to: 'Bea', at: '2026-12-02T10:01:00.000Z', summary: 'schema change is merged, please rebase', team: null, fromPersonaId: 'p-ada', toPersonaId: 'p-bea' },
      { id: 'session:claude:ada:toolu_send_by_session', from: 'Ada', to: 'Bea', at: '2026-12-02T10:02:00.000Z', summary: null, team: null, fromPersonaId: 'p-ada', toPersonaId: 'p-bea' },
      { id: 'session:claude:ada:toolu_send_long', from: 'Ada', to: 'Bea', at: '2026-12-02T10:05:00.000Z', summary: 'a summary that is much longer than sixty characters and kee…', team: null, fromPersonaId: 'p-ada', toPersonaId: 'p-bea' },
      { id: 'session-in:claude:bea:r-u2', from: 'Ada', to: 'Bea', at: '2026-12-02T10:30:00.000Z', summary: null, team: null, fromPersonaId: 'p-ada', toPersonaId: 'p-bea' },
    ]);
    expect(JSON.stringify(messages)).not.toContain('BODY-SECRET');
  });

  it('Rule SM4: messages between teammates are left to the team\'s inboxes', async () => {
    const member = (name: string, personaId: string) => ({ name, agentId: `${name}@crew`, lead: false, colour: null, seatId: null, personaId, state: { state: 'unknown' as const, certain: false, since: null } });
    const team: Team = { name: 'crew', leadPersonaId: 'p-ada', members: [member('ada', 'p-ada'), member('bea', 'p-bea')], messages: [], notes: [] };
    const messages = crossSessionMessages(await seats(), [team]);
    expect(messages.map((message) => message.id)).toEqual(['session:claude:ada:toolu_send_by_session']);
  });

  it('Rule SM3: two seats with the same name are not told apart by name', async () => {
    const [ada, bea] = await seats();
    const twin = { ...bea, seatId: 'claude:bea2', personaId: 'p-bea2', sessionId: 'cccccccc-0000-4000-8000-00000000000c', facts: [] };
    expect(crossSessionMessages([ada, bea, twin], []).map((message) => message.id)).toEqual(['session-in:claude:bea:r-u1', 'session:claude:ada:toolu_send_by_session', 'session-in:claude:bea:r-u2']);
  });

  it('the Claude reader gives the facts from the same pass as its projection, and only new ones on a warm read', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-session-messages-'));
    dirs.push(home);
    const folder = path.join(home, 'projects', escapeCwd('/work/app'));
    await mkdir(folder, { recursive: true });
    const journal = path.join(folder, `${ADA_SESSION}.jsonl`);
    const lines = (await readFile(path.join(FIXTURES, 'sender.jsonl'), 'utf8')).split('\n').filter(Boolean);
    await writeFile(journal, `${lines.slice(0, 3).join('\n')}\n`);
    const reader = createClaudeReader({ home });
    const address = { harness: 'claude' as const, home, sessionId: ADA_SESSION, cwd: '/work/app' };
    const cold = await reader.project(address);
    expect(cold.ok && cold.messages?.map((fact) => fact.id)).toEqual(['toolu_send_by_name']);
    await writeFile(journal, `${lines.join('\n')}\n`);
    const warm = await reader.project(address);
    expect(warm.ok && warm.messages?.map((fact) => fact.id)).toEqual(['toolu_send_by_name', 'toolu_send_by_session', 'toolu_send_nobody', 'toolu_send_long']);
    reader.dispose();
  });

  it('the fleet snapshot carries the messages between its seats, labels only', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'pixelfleet-session-fleet-'));
    dirs.push(root);
    const home = path.join(root, 'claude');
    const folder = path.join(home, 'projects', escapeCwd('/work/app'));
    await mkdir(folder, { recursive: true });
    const personas = new PersonaService({ file: path.join(root, 'personas.json') });
    for (const [name, sessionId, file] of [['Ada', ADA_SESSION, 'sender.jsonl'], ['Bea', BEA_SESSION, 'recipient.jsonl']] as const) {
      const journal = path.join(folder, `${sessionId}.jsonl`);
      await writeFile(journal, await readFile(path.join(FIXTURES, file), 'utf8'));
      await personas.hire({ name, role: 'builder', seat: { harness: 'claude', home, sessionId, cwd: '/work/app', path: journal } });
    }
    const reader = createClaudeReader({ home });
    const fleet = new FleetService({ personas, readers: { claude: reader } });
    try {
      const snapshot = await fleet.read({ fresh: true });
      const ids = new Map(snapshot.personas.map((persona) => [persona.name, persona.id]));
      expect(snapshot.messages?.map(({ from, to, summary, fromPersonaId, toPersonaId }) => ({ from, to, summary, fromPersonaId, toPersonaId }))).toEqual([
        { from: 'Ada', to: 'Bea', summary: 'schema change is merged, please rebase', fromPersonaId: ids.get('Ada'), toPersonaId: ids.get('Bea') },
        { from: 'Ada', to: 'Bea', summary: null, fromPersonaId: ids.get('Ada'), toPersonaId: ids.get('Bea') },
        { from: 'Ada', to: 'Bea', summary: 'a summary that is much longer than sixty characters and kee…', fromPersonaId: ids.get('Ada'), toPersonaId: ids.get('Bea') },
        { from: 'Ada', to: 'Bea', summary: null, fromPersonaId: ids.get('Ada'), toPersonaId: ids.get('Bea') },
      ]);
      expect(JSON.stringify(snapshot)).not.toContain('BODY-SECRET');
    } finally {
      fleet.dispose();
      reader.dispose();
      personas.dispose();
    }
  });
});
