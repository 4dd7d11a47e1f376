/** Auto-open rules over a real Claude projects folder: only new sessions in the rule's folder become seats. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../../../shared/schemas';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import { escapeCwd as escapeClaudeCwd } from '../../sources/readers/claude/locate';
import { AutoOpen, ruleMatches } from './autoOpen';
import { FleetService } from './FleetService';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const candidate = (path: string, cwd: string | null = null): Candidate => ({
  id: 'claude:s',
  harness: 'claude',
  seat: { harness: 'claude', home: '/h', sessionId: 's', cwd, path },
  cwdHint: null,
  lastActivity: '2026-01-01T00:00:00Z',
  size: 1,
});

describe('auto-open rules', () => {
  it('match by working folder, through Claude folder escaping when the cwd is not known', () => {
    expect(escapeClaudeCwd('/home/me/src/my_app')).toBe('-home-me-src-my-app');
    expect(ruleMatches({ harness: 'claude', cwd: '/home/me/src/app' }, candidate('/h/projects/-home-me-src-app/s.jsonl'))).toBe(true);
    expect(ruleMatches({ harness: 'claude', cwd: '/home/me/src/app' }, candidate('/h/projects/-home-me-src-other/s.jsonl'))).toBe(false);
    expect(ruleMatches({ harness: 'codex', cwd: '/home/me/src/app' }, candidate('/h/projects/-home-me-src-app/s.jsonl'))).toBe(false);
    expect(ruleMatches({ harness: 'claude', cwd: '/work' }, candidate('/x.jsonl', '/work'))).toBe(true);
  });

  it('open sessions that appear after the first look, in the rule folder only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-autoopen-'));
    dirs.push(dir);
    const claudeHome = join(dir, 'claude');
    const app = join(claudeHome, 'projects', escapeClaudeCwd('/home/me/src/app'));
    const other = join(claudeHome, 'projects', escapeClaudeCwd('/home/me/src/other'));
    await mkdir(app, { recursive: true });
    await mkdir(other, { recursive: true });
    await writeFile(join(app, 'old-session.jsonl'), '{}\n');
    const personas = new PersonaService({ file: join(dir, 'personas.json') });
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: claudeHome }) } });
    const rules = new AutoOpen({ fleet, rules: [{ harness: 'claude', cwd: '/home/me/src/app' }] });
    expect(await rules.check()).toEqual([]);
    await writeFile(join(app, 'new-session.jsonl'), '{}\n');
    await writeFile(join(other, 'elsewhere.jsonl'), '{}\n');
    expect(await rules.check()).toEqual(['claude:new-session']);
    const seated = (await personas.list()).map((persona) => persona.seat?.sessionId);
    expect(seated).toEqual(['new-session']);
    expect(await rules.check()).toEqual([]);
    personas.dispose();
  });

  it('do nothing without rules', async () => {
    const personas = { list: async () => [], onChange: () => () => {} } as unknown as PersonaService;
    const fleet = new FleetService({ personas, readers: {} });
    expect(await new AutoOpen({ fleet, rules: [] }).check()).toEqual([]);
  });
});
