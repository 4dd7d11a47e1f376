/** `pixelfleet roles …` in-process over real temp folders, with a real editor process for `edit`. */
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runRolesCommand } from './roles';
import { main } from './index';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup() {
  const root = await mkdtemp(path.join(tmpdir(), 'pixelfleet-roles-cli-'));
  dirs.push(root);
  const env: NodeJS.ProcessEnv = { HOME: path.join(root, 'user'), PIXELFLEET_HOME: path.join(root, 'home'), CLAUDE_CONFIG_DIR: path.join(root, 'claude'), CODEX_HOME: path.join(root, 'codex'), PATH: path.join(root, 'empty-bin') };
  const cli = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await runRolesCommand(args, { home: path.join(root, 'home'), env: { ...env, ...extraEnv }, cwd: path.join(root, 'project'), stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  };
  return { root, env, cli };
}

async function editorScript(root: string, name: string, body: string): Promise<string> {
  const file = path.join(root, name);
  await writeFile(file, `#!${process.execPath}\nconst fs = require('node:fs');\nconst file = process.argv[2];\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('pixelfleet roles', () => {
  it('is routed from the top-level command and listed in the help', async () => {
    const { env } = await setup();
    let stdout = '';
    const code = await main(['roles', 'show', 'builder'], { stdout: (text) => (stdout += text), stderr: () => {}, env });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^---\ndescription: Builds the change/);
    let help = '';
    await main(['--help'], { stdout: (text) => (help += text), stderr: () => {}, env });
    expect(help).toContain('roles export <role> --harness claude|opencode|codex');
  });

  it('shows a profile as JSON and says when a custom role has none', async () => {
    const { cli } = await setup();
    const shown = await cli(['show', 'Reviewer', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ role: 'reviewer', source: 'default', problem: null, profile: { tools: { deny: ['edit'] } } });
    const none = await cli(['show', 'Sound', 'Designer']);
    expect(none).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^pixelfleet roles: The role Sound Designer has no profile yet/) });
  });

  it('edits through $EDITOR, validates before saving, and keeps rejected text', async () => {
    const { root, cli } = await setup();
    const good = await editorScript(root, 'good-editor', `fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Mixes the sound.'));`);
    const saved = await cli(['edit', 'Sound', 'Designer'], { EDITOR: good });
    expect(saved).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Saved .*sound designer\.md/) });
    const file = path.join(root, 'home', 'roles', 'sound designer.md');
    expect(await readFile(file, 'utf8')).toMatch(/description: Mixes the sound\./);
    const bad = await editorScript(root, 'bad-editor', `fs.writeFileSync(file, '---\\ndescription: x\\ncolour: red\\n---\\n');`);
    const rejected = await cli(['edit', 'sound designer'], { EDITOR: bad });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/not saved: colour: a colour is #rrggbb.*kept at .*rejected-/);
    expect(rejected.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toMatch(/description: Mixes the sound\./);
    const names = await readdir(path.join(root, 'home', 'roles'));
    expect(names.filter((name) => name.includes('.rejected-'))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith('.draft-'))).toHaveLength(0);
    expect(await cli(['edit', 'builder'], { EDITOR: '', VISUAL: '' })).toMatchObject({ code: 1, stderr: expect.stringMatching(/set \$EDITOR/) });
  });

  it('exports with the documented exit codes: 0 written, 1 refused, 2 usage or Codex undetermined', async () => {
    const { root, cli } = await setup();
    const dir = path.join(root, 'elsewhere');
    const preview = await cli(['export', 'builder', '--harness', 'claude', '--dir', dir, '--dry-run']);
    expect(preview).toMatchObject({ code: 0, stdout: expect.stringMatching(/^---\n# pixelfleet-export role="builder"/) });
    const written = await cli(['export', 'builder', '--harness', 'claude', '--dir', dir]);
    expect(written).toMatchObject({ code: 0, stdout: `Wrote ${path.join(dir, '.claude', 'agents', 'builder.md')} (agent "builder").\n` });
    await writeFile(path.join(dir, '.claude', 'agents', 'builder.md'), 'mine\n');
    const refused = await cli(['export', 'builder', '--harness', 'claude', '--dir', dir, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'refused' });
    expect(await cli(['export', 'builder', '--harness', 'claude', '--dir', dir, '--force'])).toMatchObject({ code: 0 });
    const codex = await cli(['export', 'builder', '--harness', 'codex']);
    expect(codex).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot be determined/) });
    expect((await cli(['export', 'builder'])).code).toBe(2);
    expect((await cli(['export', 'builder', '--harness', 'vim'])).code).toBe(2);
    expect((await cli(['export', 'builder', '--harness', 'claude', '--scope', 'user', '--dir', dir])).code).toBe(2);
    expect((await cli(['export', 'builder', '--harness', 'claude', '--frobnicate'])).code).toBe(2);
  });
});
