// Seat confinement through the real app: a hire or a seat move is accepted only for a session discovery lists
// under the configured harness homes, and the stored address is discovery's, never the client's path or home.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../setup/app';
import { assistantLine, isoAt, textBlock } from '../../dev/testing/claudeJournal';

let root: string;
let app: App;
let journal: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pixelfleet-seats-'));
  const claude = join(root, 'claude');
  await mkdir(join(claude, 'projects', '-work-app'), { recursive: true });
  journal = join(claude, 'projects', '-work-app', 's-real.jsonl');
  await writeFile(journal, `${assistantLine({ sessionId: 's-real', at: isoAt(0) }, 'm1', [textBlock('hi')])}\n`);
  // A journal planted outside every harness home, shaped like a real one.
  await writeFile(join(root, 's-planted.jsonl'), `${assistantLine({ sessionId: 's-planted', at: isoAt(0) }, 'm1', [textBlock('hi')])}\n`);
  const env = { HOME: root, CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(root, 'codex'), XDG_DATA_HOME: join(root, 'data'), OPENCODE_DB: '' };
  app = await createApp({ home: join(root, 'app'), mode: 'web', env, live: false, log: () => {} });
});
afterEach(async () => {
  await app.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('seat confinement', () => {
  it('refuses a hire whose seat is not a discovered session, naming the rule, and stores nothing', async () => {
    for (const seat of [
      { harness: 'claude', home: '/etc', sessionId: 'passwd', path: '/etc/passwd' },
      { harness: 'claude', home: root, sessionId: 's-planted', path: join(root, 's-planted.jsonl') },
    ]) {
      const answer = await app.router.handle('agents.hire', { name: 'Mallory', seat });
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('discovery lists under the configured harness homes') } });
    }
    expect(await app.personas.list()).toEqual([]);
  });

  it('stores the discovered address for a known session, whatever path and home the client sent', async () => {
    const answer = await app.router.handle('agents.hire', { name: 'Ada', seat: { harness: 'claude', home: '/etc', sessionId: 's-real', path: '/etc/passwd', cwd: '/' } });
    expect(answer.ok).toBe(true);
    const [ada] = await app.personas.list();
    // The working folder is the one the journal records, never the client's.
    expect(ada.seat).toEqual({ harness: 'claude', home: join(root, 'claude'), sessionId: 's-real', cwd: '/work/demo', path: journal });
  });

  it('refuses a seat move to an address outside the homes, and leaves the persona as it was', async () => {
    const hired = await app.router.handle('agents.hire', { name: 'Bo' });
    const id = (hired as { value: { id: string } }).value.id;
    const moved = await app.router.handle('personas.moveSeat', { personaId: id, seat: { harness: 'claude', home: root, sessionId: 's-planted', path: join(root, 's-planted.jsonl') } });
    expect(moved).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((await app.personas.list())[0].seat).toBeUndefined();
    const ok = await app.router.handle('personas.moveSeat', { personaId: id, seat: { harness: 'claude', home: 'x', sessionId: 's-real', path: '/etc/passwd' } });
    expect(ok.ok).toBe(true);
    expect((await app.personas.list())[0].seat?.path).toBe(journal);
  });
});
