import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../shared/roles';
import { PersonaService } from '../../core/personas/PersonaService';
import { runAgentsCommand } from './agents';

let home: string;

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runAgentsCommand(args, { home, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

async function hireJson(...args: string[]): Promise<{ id: string; name: string; role: string | null }> {
  const result = await run('hire', ...args, '--json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout);
}

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-cli-'));
});

afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

describe('agents hire', () => {
  it('prints the new persona as JSON with every key present', async () => {
    const persona = await hireJson('--name', 'Ada', '--role', 'Builder');
    expect(Object.keys(persona)).toEqual(['id', 'name', 'role', 'seat', 'appearance', 'createdAt', 'updatedAt']);
    expect(persona).toMatchObject({ name: 'Ada', role: 'builder', seat: null });
    const stored = JSON.parse(await fs.readFile(path.join(home, 'personas.json'), 'utf8'));
    expect(stored.personas[0].id).toBe(persona.id);
  });

  it('prints a table without --json and generates a name when none is given', async () => {
    const result = await run('hire', '--role=Sound Designer');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Hired \S+\.$/);
    expect(lines[1]).toMatch(/^ID\s+NAME\s+ROLE\s+SEAT$/);
    expect(lines[2]).toContain('Sound Designer');
  });

  it('refuses an invalid role with exit 1 and one line naming the rule, writing nothing', async () => {
    const result = await run('hire', '--name', 'Ada', '--role', 'dev_ops');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'pixelfleet agents: A role holds only letters, digits, spaces and hyphens (this one has "_").\n',
    });
    expect(existsSync(path.join(home, 'personas.json'))).toBe(false);
  });
});

describe('agents list', () => {
  it('prints aligned columns with "no role" and the seat (harness and role named as every panel names them)', async () => {
    await hireJson('--name', 'Ada', '--role', 'planner');
    const service = new PersonaService({ file: path.join(home, 'personas.json') });
    const long = await service.hire({ name: 'Bartholomew', seat: { harness: 'codex', home: '/h', sessionId: 's-9', cwd: '/work/x' } });
    service.dispose();
    const result = await run('list');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('no role');
    expect(lines[2]).toContain('Codex s-9');
    expect(lines[2]).toContain('Codex s-9 (/work/x)');
    expect(lines[2].startsWith(long.id)).toBe(true);
    // Every column starts at the same offset on every line.
    for (const title of ['NAME', 'ROLE', 'SEAT']) {
      const column = lines[0].indexOf(title);
      expect(lines[1][column - 1]).toBe(' ');
      expect(lines[1][column]).not.toBe(' ');
      expect(lines[2][column]).not.toBe(' ');
    }
  });

  it('prints the personas.list array with --json, role, seat and terminal as null when absent', async () => {
    expect(JSON.parse((await run('list', '--json')).stdout)).toEqual([]);
    const ada = await hireJson('--name', 'Ada');
    const result = await run('list', '--json');
    expect(JSON.parse(result.stdout)).toEqual([{ ...ada, terminal: null }]);
    expect(result.stdout).toBe(`${JSON.stringify([{ ...ada, terminal: null }], null, 2)}\n`);
  });

  it('tells the owner on stderr when the store was moved aside, and still lists', async () => {
    await fs.writeFile(path.join(home, 'personas.json'), '{ broken');
    const result = await run('list', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('personas.json.corrupt-');
  });
});

describe('agents role', () => {
  it('sets a role by name or id and clears it', async () => {
    const ada = await hireJson('--name', 'Ada Lovelace');
    expect(await run('role', 'ada lovelace', 'Sound', 'Designer')).toEqual({
      code: 0,
      stdout: `Ada Lovelace (${ada.id}) now holds the role Sound Designer.\n`,
      stderr: '',
    });
    const json = await run('role', ada.id, 'TESTER', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ id: ada.id, role: 'tester' });
    expect((await run('role', ada.id, '--clear')).stdout).toContain('holds no role now');
    expect(JSON.parse((await run('list', '--json')).stdout)[0].role).toBeNull();
  });

  it('refuses unknown personas, invalid roles and ambiguous names with exit 1 and one line', async () => {
    await hireJson('--name', 'Bo');
    await hireJson('--name', 'bo');
    const unknown = await run('role', 'Nobody', 'tester');
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'pixelfleet agents: No persona with id or name "Nobody".\n' });
    const tooLong = await run('role', (await hireJson('--name', 'Cy')).id, 'x'.repeat(25));
    expect(tooLong.stderr).toBe('pixelfleet agents: A role is at most 24 characters (this one has 25).\n');
    const ambiguous = await run('role', 'BO', 'tester');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/^pixelfleet agents: 2 personas are named "BO" .*; use an id\.\n$/);
  });

  it('treats wrong shapes as usage errors (exit 2, one line)', async () => {
    for (const args of [['role'], ['role', 'Ada'], ['role', 'Ada', 'tester', '--clear'], ['hire', '--name'], ['hire', '--colour', 'red'], ['list', 'extra'], ['fire'], []]) {
      const result = await run(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.endsWith('\n') && result.stderr.split('\n').length, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage: pixelfleet agents');
    }
  });
});

describe('agents roles', () => {
  it('prints exactly the roles.list array with --json, and a table without', async () => {
    await hireJson('--name', 'Ada', '--role', 'Sound Designer');
    await hireJson('--name', 'Bo', '--role', 'builder');
    const result = await run('roles', '--json');
    const expected = [
      ...BUILT_IN_ROLES.map((role) => ({ role, builtIn: true, count: role === 'builder' ? 1 : 0 })),
      { role: 'Sound Designer', builtIn: false, count: 1 },
    ];
    expect(result.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    const table = (await run('roles')).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^ROLE\s+KIND\s+COUNT$/);
    expect(table[3]).toMatch(/^Builder\s+built-in\s+1$/);
    expect(table[7]).toMatch(/^Sound Designer\s+custom\s+1$/);
  });
});

describe('agents in a real child process', () => {
  /** Runs the command in its own Node process, as `npx pixelfleet agents …` would. */
  async function runChild(command: string[], args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [...command, ...args], { cwd: process.cwd(), env: { ...process.env, PIXELFLEET_HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  }

  it('writes a role that a running PersonaService picks up on refresh()', async () => {
    const app = new PersonaService({ file: path.join(home, 'personas.json') });
    const ada = await app.hire({ name: 'Ada' });
    let changes = 0;
    app.onChange(() => {
      changes += 1;
    });
    const entry = `const { runAgentsCommand } = await import(${JSON.stringify(path.resolve('main/edges/cli/agents.ts'))});
      process.exitCode = await runAgentsCommand(process.argv.slice(1), {
        home: process.env.PIXELFLEET_HOME, stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) });`;
    const result = await runChild(['--import', 'tsx', '--input-type=module', '-e', entry], ['agents', 'role', 'Ada', 'Reviewer']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await app.refresh()).toBe(true);
    expect(changes).toBe(1);
    expect((await app.find(ada.id))?.role).toBe('reviewer');
    app.dispose();
  }, 60_000);

  it('runs through main/edges/cli/pixelfleet.mjs', async () => {
    const hired = await runChild(['main/edges/cli/pixelfleet.mjs'], ['agents', 'hire', '--name', 'Ada', '--role', 'Planner', '--json']);
    expect(hired).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(hired.stdout)).toMatchObject({ name: 'Ada', role: 'planner' });
    const roles = await runChild(['main/edges/cli/pixelfleet.mjs'], ['agents', 'roles', '--json']);
    expect(roles.code).toBe(0);
    expect(JSON.parse(roles.stdout)[0]).toEqual({ role: 'planner', builtIn: true, count: 1 });
    const stored = JSON.parse(await fs.readFile(path.join(home, 'personas.json'), 'utf8'));
    expect(stored.personas.map((persona: { name: string }) => persona.name)).toEqual(['Ada']);
    const refused = await runChild(['main/edges/cli/pixelfleet.mjs'], ['agents', 'role', 'Ada', '-x']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);
});
