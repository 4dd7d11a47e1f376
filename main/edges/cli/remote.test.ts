/** `pixelfleet remote add|list|remove` over a real temp home. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './index';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function home(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-remote-cli-'));
  dirs.push(dir);
  return dir;
}

async function cli(dir: string, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { HOME: '/nonexistent-home', PIXELFLEET_HOME: dir } });
  return { code, stdout, stderr };
}

describe('pixelfleet remote', () => {
  it('adds, lists (also as JSON) and removes remotes, kept in remotes.json', async () => {
    const dir = await home();
    expect((await cli(dir, ['remote', 'add', 'build', 'me@build.example.com'])).code).toBe(0);
    expect((await cli(dir, ['remote', 'add', 'lab', 'ssh://lab:2222', '--command', 'npx pixelfleet'])).code).toBe(0);
    const listed = await cli(dir, ['remote', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'build', destination: 'me@build.example.com', command: 'pixelfleet' },
      { name: 'lab', destination: 'ssh://lab:2222', command: 'npx pixelfleet' },
    ]);
    expect((await cli(dir, ['remote', 'list'])).stdout).toContain('build  me@build.example.com  pixelfleet');
    expect((await cli(dir, ['remote', 'remove', 'build'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'remotes.json'), 'utf8')).remotes.map((remote: { name: string }) => remote.name)).toEqual(['lab']);
    const missing = await cli(dir, ['remote', 'remove', 'build']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no remote is named build');
  });

  it('refuses a destination that ssh would read as an option, a bad name and a taken name, changing nothing', async () => {
    const dir = await home();
    const option = await cli(dir, ['remote', 'add', 'evil', '-oProxyCommand=touch']);
    expect(option.code).not.toBe(0);
    const badName = await cli(dir, ['remote', 'add', 'Bad Name', 'host']);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('remote name');
    expect((await cli(dir, ['remote', 'add', 'box', 'host'])).code).toBe(0);
    const taken = await cli(dir, ['remote', 'add', 'box', 'other']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('exists already');
    expect(JSON.parse((await cli(dir, ['remote', 'list', '--json'])).stdout)).toEqual([{ name: 'box', destination: 'host', command: 'pixelfleet' }]);
  });

  it('reports a remotes.json that does not parse and leaves it as it is', async () => {
    const dir = await home();
    await writeFile(join(dir, 'remotes.json'), '{ not json');
    const listed = await cli(dir, ['remote', 'list']);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('is not JSON');
    expect((await cli(dir, ['remote', 'add', 'box', 'host'])).code).toBe(1);
    expect(await readFile(join(dir, 'remotes.json'), 'utf8')).toBe('{ not json');
  });

  it('`serve` needs --stdio', async () => {
    const dir = await home();
    const result = await cli(dir, ['serve']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--stdio');
  });
});
