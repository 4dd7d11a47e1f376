/**
 * Export into real temp folders: Claude Code and OpenCode files parsed back, the marker rules M1–M3 (foreign and
 * edited files refused, --force), dry runs, the Codex path both refused (no Codex here) and exported (a stub
 * `codex` on PATH), and `exportedAgentFor`.
 */
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { exportRole, exportedAgentFor, type ExportRequest } from './exportAgent';
import { readMarker } from './marker';
import { saveProfile } from './ProfileStore';
import { agentSlug } from './targets';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup() {
  const root = await mkdtemp(path.join(tmpdir(), 'pixelfleet-export-'));
  dirs.push(root);
  const env = { HOME: path.join(root, 'user'), CLAUDE_CONFIG_DIR: path.join(root, 'claude'), CODEX_HOME: path.join(root, 'codex'), XDG_CONFIG_HOME: path.join(root, 'config'), PATH: path.join(root, 'bin') };
  const base = { home: path.join(root, 'home'), scope: 'project', projectDir: path.join(root, 'project'), dryRun: false, force: false, env } as const;
  const run = (overrides: Partial<ExportRequest> & Pick<ExportRequest, 'role' | 'harness'>) => exportRole({ ...base, ...overrides });
  return { root, env, base, run };
}

function frontMatter(text: string): { fields: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`no front matter in ${text}`);
  return { fields: parseYaml(match[1]) as Record<string, unknown>, body: match[2] };
}

describe('exporting a role profile', () => {
  it('writes a Claude Code agent whose front matter Claude Code reads: name, description, tools, model', async () => {
    const { run, base } = await setup();
    await saveProfile(base.home, 'Sound Designer', {
      description: 'Keeps the sound consistent.',
      charter: 'Listen first.',
      tools: { allow: ['read', 'search', 'edit'], deny: [] },
      models: { claude: 'sonnet' },
      colour: '#12ab34',
    });
    const outcome = await run({ role: 'sound designer', harness: 'claude' });
    expect(outcome).toMatchObject({ ok: true, action: 'written', existing: 'missing', name: 'sound-designer' });
    const file = path.join(base.projectDir, '.claude', 'agents', 'sound-designer.md');
    expect(outcome.ok && outcome.path).toBe(file);
    const { fields, body } = frontMatter(await readFile(file, 'utf8'));
    expect(fields).toEqual({ name: 'sound-designer', description: 'Keeps the sound consistent.', tools: 'Read, Grep, Glob, Edit, Write, NotebookEdit', model: 'sonnet' });
    expect(body).toBe('Listen first.\n');
    expect(readMarker(await readFile(file, 'utf8'))).toEqual({ kind: 'ours', role: 'sound designer' });
  });

  it('writes a built-in role from its default profile; a denial without an allow list is disallowedTools', async () => {
    const { run, base, env } = await setup();
    const outcome = await run({ role: 'Reviewer', harness: 'claude', scope: 'user' });
    expect(outcome).toMatchObject({ ok: true, action: 'written', path: path.join(env.CLAUDE_CONFIG_DIR, 'agents', 'reviewer.md') });
    const { fields } = frontMatter(outcome.ok ? outcome.text : '');
    expect(fields.tools).toBe('Read, Grep, Glob, Bash, WebFetch, WebSearch');
    await saveProfile(base.home, 'builder', { description: 'Builds.', charter: 'Build.', tools: { deny: ['web'] }, models: {} });
    const builder = await run({ role: 'builder', harness: 'claude' });
    expect(frontMatter(builder.ok ? builder.text : '').fields).toEqual({ name: 'builder', description: 'Builds.', disallowedTools: 'WebFetch, WebSearch' });
  });

  it('writes an OpenCode subagent with its own front matter names in .opencode/agents', async () => {
    const { run, base, env } = await setup();
    await saveProfile(base.home, 'researcher', { description: 'Finds facts.', charter: 'Cite sources.', tools: { allow: ['read', 'search', 'web'], deny: [] }, models: { opencode: 'anthropic/claude-sonnet-4' }, colour: '#23A8A8' });
    const outcome = await run({ role: 'researcher', harness: 'opencode' });
    const file = path.join(base.projectDir, '.opencode', 'agents', 'researcher.md');
    expect(outcome).toMatchObject({ ok: true, action: 'written', path: file });
    const { fields, body } = frontMatter(await readFile(file, 'utf8'));
    expect(fields).toEqual({
      description: 'Finds facts.',
      mode: 'subagent',
      model: 'anthropic/claude-sonnet-4',
      color: '#23a8a8',
      permission: { edit: 'deny', bash: 'deny', task: 'deny' },
    });
    expect(body).toBe('Cite sources.\n');
    const user = await run({ role: 'researcher', harness: 'opencode', scope: 'user' });
    expect(user.ok && user.path).toBe(path.join(env.XDG_CONFIG_HOME, 'opencode', 'agents', 'researcher.md'));
  });

  it('Rule M1: never replaces a file Pixelfleet did not write, unless forced', async () => {
    const { run, base } = await setup();
    const file = path.join(base.projectDir, '.claude', 'agents', 'planner.md');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '---\nname: planner\ndescription: mine\n---\n\nMy own planner.\n');
    const refused = await run({ role: 'planner', harness: 'claude' });
    expect(refused).toEqual({ ok: false, code: 'refused', path: file, reason: expect.stringMatching(/was not written by Pixelfleet.*--force/) });
    expect(await readFile(file, 'utf8')).toContain('My own planner.');
    const forced = await run({ role: 'planner', harness: 'claude', force: true });
    expect(forced).toMatchObject({ ok: true, action: 'written', existing: 'foreign' });
    expect(readMarker(await readFile(file, 'utf8')).kind).toBe('ours');
  });

  it('Rules M2 and M3: replaces its own unchanged file, refuses one edited since', async () => {
    const { run, base } = await setup();
    const first = await run({ role: 'tester', harness: 'opencode' });
    const file = first.ok ? first.path : '';
    expect(await run({ role: 'tester', harness: 'opencode' })).toMatchObject({ ok: true, action: 'unchanged', existing: 'ours' });
    await saveProfile(base.home, 'tester', { description: 'Tests harder.', charter: 'Break it.', tools: { deny: [] }, models: {} });
    expect(await run({ role: 'tester', harness: 'opencode' })).toMatchObject({ ok: true, action: 'written', existing: 'ours' });
    await writeFile(file, (await readFile(file, 'utf8')).replace('Break it.', 'Break it gently.'));
    expect(await run({ role: 'tester', harness: 'opencode' })).toEqual({ ok: false, code: 'refused', path: file, reason: expect.stringMatching(/was edited since Pixelfleet wrote it/) });
    expect(await readFile(file, 'utf8')).toContain('Break it gently.');
    expect(await exportedAgentFor('tester', 'opencode', base.projectDir, base.env)).toEqual({ path: file, scope: 'project', name: 'tester', edited: true });
    expect(await run({ role: 'tester', harness: 'opencode', force: true })).toMatchObject({ ok: true, action: 'written', existing: 'edited' });
    expect(await exportedAgentFor('tester', 'opencode', base.projectDir, base.env)).toMatchObject({ edited: false });
  });

  it('a dry run renders the file and writes nothing', async () => {
    const { run, base } = await setup();
    const preview = await run({ role: 'designer', harness: 'claude', dryRun: true });
    expect(preview).toMatchObject({ ok: true, action: 'preview', existing: 'missing' });
    expect(preview.ok && frontMatter(preview.text).fields.name).toBe('designer');
    await expect(readdir(base.projectDir)).rejects.toThrow();
  });

  it('refuses a role without a profile and a profile that does not parse', async () => {
    const { run, base } = await setup();
    expect(await run({ role: 'Sound Designer', harness: 'claude' })).toMatchObject({ ok: false, code: 'no_profile', reason: expect.stringMatching(/has no profile yet/) });
    await mkdir(path.join(base.home, 'roles'), { recursive: true });
    await writeFile(path.join(base.home, 'roles', 'builder.md'), '---\ndescription: [\n---\n');
    expect(await run({ role: 'builder', harness: 'claude' })).toMatchObject({ ok: false, code: 'no_profile', reason: expect.stringMatching(/not valid YAML.*roles edit builder/) });
    expect(await run({ role: '-x', harness: 'claude' })).toMatchObject({ ok: false, code: 'invalid_role' });
  });

  it('Codex: refuses with its reason when the installed format cannot be determined', async () => {
    const { run, base } = await setup();
    const outcome = await run({ role: 'builder', harness: 'codex' });
    expect(outcome).toEqual({ ok: false, code: 'undetermined', reason: expect.stringMatching(/Codex is not installed here.*cannot be determined/) });
    await expect(readdir(base.projectDir)).rejects.toThrow();
  });

  it('Codex: refuses an installed build that predates agent-role files', async () => {
    const { run, root } = await setup();
    await stubCodex(root, 'codex-cli 0.98.0');
    expect(await run({ role: 'builder', harness: 'codex' })).toMatchObject({ ok: false, code: 'undetermined', reason: expect.stringMatching(/0\.98\.0 predates agent-role files/) });
  });

  it('Codex: writes agents/<slug>.toml with name, description and developer_instructions for a current build', async () => {
    const { run, root, env } = await setup();
    await stubCodex(root, 'codex-cli 0.140.2');
    const outcome = await run({ role: 'reviewer', harness: 'codex', scope: 'user' });
    const file = path.join(env.CODEX_HOME, 'agents', 'reviewer.toml');
    expect(outcome).toMatchObject({ ok: true, action: 'written', path: file });
    const text = await readFile(file, 'utf8');
    expect(readMarker(text)).toEqual({ kind: 'ours', role: 'reviewer' });
    const table = Object.fromEntries(
      text.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => {
        const [, key, value] = /^([a-z_]+) = (".*")$/.exec(line) ?? [];
        return [key, JSON.parse(value)];
      }),
    );
    expect(table).toEqual({ name: 'reviewer', description: expect.stringMatching(/^Reviews a change/), developer_instructions: expect.stringMatching(/another family/), sandbox_mode: 'read-only' });
  });

  it('names agents by an ASCII slug, with a hashed fallback for roles without ASCII letters', () => {
    expect(agentSlug('Sound  Designer')).toBe('sound-designer');
    expect(agentSlug('Diseñadora')).toBe('disenadora');
    expect(agentSlug('レビュー')).toMatch(/^role-[0-9a-f]{8}$/);
  });
});

async function stubCodex(root: string, version: string): Promise<void> {
  const bin = path.join(root, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'codex'), `#!/bin/sh\necho "${version}"\n`);
  await chmod(path.join(bin, 'codex'), 0o755);
}
