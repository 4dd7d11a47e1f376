/**
 * The role-profile channels in real temp folders, through the router so the contract's strict, bounded requests are
 * part of what is tested: read, save (field errors, nothing written), export preview, write, refusal and force.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Handlers } from '../../edges/transport/router';
import { DEFAULT_PROFILES } from './defaults';
import { exportProfile, readProfileView, saveProfileView, type ProfileHandlerContext } from './profileHandlers';
import { loadProfile, profilePath } from './ProfileStore';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup() {
  const root = await mkdtemp(path.join(tmpdir(), 'pixelfleet-profile-channels-'));
  dirs.push(root);
  const env = { HOME: path.join(root, 'user'), CLAUDE_CONFIG_DIR: path.join(root, 'claude'), CODEX_HOME: path.join(root, 'codex'), XDG_CONFIG_HOME: path.join(root, 'config'), PATH: path.join(root, 'bin') };
  const context: ProfileHandlerContext = { home: path.join(root, 'home'), env };
  const handlers = {
    'roles.profile': (request) => readProfileView(context, request),
    'roles.saveProfile': (request) => saveProfileView(context, request),
    'roles.export': (request) => exportProfile(context, request),
  } as Partial<Handlers> as Handlers;
  const router = createRouter(handlers);
  const ask = async (channel: string, payload: unknown) => router.handle(channel, payload);
  const project = path.join(root, 'project');
  await mkdir(project);
  return { root, context, ask, project };
}

function frontMatter(text: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error(`no front matter in ${text}`);
  return parseYaml(match[1]) as Record<string, unknown>;
}

const edited = { description: 'Tests from the outside.', charter: 'Break it politely.', tools: { allow: ['read', 'shell'], deny: [] }, models: { claude: 'sonnet' }, colour: '#112233' };

describe('the role-profile channels', () => {
  it('reads a built-in default, then the saved file, atomically written where `roles show` reads it', async () => {
    const { ask, context } = await setup();
    expect(await ask('roles.profile', { role: 'Tester' })).toMatchObject({ ok: true, value: { source: 'default', profile: DEFAULT_PROFILES.tester, problem: null } });
    const saved = await ask('roles.saveProfile', { role: 'Tester', profile: edited });
    expect(saved).toMatchObject({ ok: true, value: { saved: true, view: { source: 'file', profile: edited, path: profilePath(context.home, 'tester') } } });
    expect(await loadProfile(context.home, 'tester')).toMatchObject({ source: 'file', profile: edited });
    expect(await readFile(profilePath(context.home, 'tester'), 'utf8')).toMatch(/^---\ndescription: Tests from the outside\.\n/);
  });

  it('answers problems field by field and writes nothing', async () => {
    const { ask, context } = await setup();
    const bad = { ...edited, description: 'two\nlines', models: { claude: 'has space' }, colour: 'red', tools: { allow: ['read', 'teleport'] } };
    const answer = await ask('roles.saveProfile', { role: 'tester', profile: bad });
    expect(answer.ok).toBe(true);
    const value = (answer as { value: { saved: boolean; errors: { field: string; message: string }[] } }).value;
    expect(value.saved).toBe(false);
    expect(value.errors.map((error) => error.field).sort()).toEqual(['colour', 'description', 'models.claude', 'tools.allow.1']);
    expect(value.errors.find((error) => error.field === 'colour')?.message).toBe('a colour is #rrggbb');
    await expect(stat(profilePath(context.home, 'tester'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses unknown keys and over-long fields at the contract, naming the field', async () => {
    const { ask } = await setup();
    expect(await ask('roles.saveProfile', { role: 'tester', profile: { ...edited, extra: 1 } })).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('profile.extra: unknown field') } });
    expect(await ask('roles.saveProfile', { role: 'tester', profile: { ...edited, description: 'x'.repeat(5000) } })).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('profile.description: is too long') } });
    expect(await ask('roles.profile', { role: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid_role' } });
  });

  it('previews without writing, writes into the project, refuses a foreign file, and replaces it with force', async () => {
    const { ask, project } = await setup();
    const request = { role: 'Reviewer', harness: 'claude', scope: 'project', dir: project, dryRun: true, force: false };
    const file = path.join(project, '.claude', 'agents', 'reviewer.md');
    const preview = await ask('roles.export', request);
    expect(preview).toMatchObject({ ok: true, value: { ok: true, action: 'preview', path: file, name: 'reviewer', existing: 'missing' } });
    expect(frontMatter((preview as { value: { text: string } }).value.text)).toMatchObject({ name: 'reviewer', description: DEFAULT_PROFILES.reviewer.description });
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });

    expect(await ask('roles.export', { ...request, dryRun: false })).toMatchObject({ ok: true, value: { ok: true, action: 'written', path: file } });
    expect(frontMatter(await readFile(file, 'utf8'))).toMatchObject({ name: 'reviewer', tools: 'Read, Grep, Glob, Bash, WebFetch, WebSearch' });

    await writeFile(file, '---\nname: reviewer\ndescription: mine\n---\n\nHands off.\n');
    expect(await ask('roles.export', { ...request, dryRun: false })).toMatchObject({ ok: true, value: { ok: false, code: 'refused', path: file, reason: expect.stringContaining('was not written by Pixelfleet') } });
    expect(await readFile(file, 'utf8')).toContain('Hands off.');
    expect(await ask('roles.export', { ...request, dryRun: false, force: true })).toMatchObject({ ok: true, value: { ok: true, action: 'written', existing: 'foreign' } });
    expect(frontMatter(await readFile(file, 'utf8')).description).toBe(DEFAULT_PROFILES.reviewer.description);
  });

  it('says why Codex is not exported when its format cannot be determined, and needs a full project folder', async () => {
    const { ask, project } = await setup();
    const codex = await ask('roles.export', { role: 'builder', harness: 'codex', scope: 'project', dir: project, dryRun: false, force: false });
    expect(codex).toMatchObject({ ok: true, value: { ok: false, code: 'undetermined', reason: expect.stringContaining('Codex is not installed here') } });
    expect(await ask('roles.export', { role: 'builder', harness: 'claude', scope: 'project', dir: 'relative/folder', dryRun: true, force: false })).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('full path') } });
    expect(await ask('roles.export', { role: 'builder', harness: 'claude', scope: 'project', dryRun: true, force: false })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('writes a user-scope OpenCode agent under the config folder', async () => {
    const { ask, root } = await setup();
    const file = path.join(root, 'config', 'opencode', 'agents', 'planner.md');
    expect(await ask('roles.export', { role: 'planner', harness: 'opencode', scope: 'user', dryRun: false, force: false })).toMatchObject({ ok: true, value: { ok: true, action: 'written', path: file } });
    expect(frontMatter(await readFile(file, 'utf8'))).toMatchObject({ mode: 'subagent', description: DEFAULT_PROFILES.planner.description });
  });
});
