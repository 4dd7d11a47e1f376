/** Profiles in a real temp app home: defaults, a bad file reported while the role keeps working, atomic saves. */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES } from './defaults';
import { loadProfile, profilePath, saveProfile } from './ProfileStore';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function home(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pixelfleet-profiles-'));
  dirs.push(dir);
  return dir;
}

describe('the profile store', () => {
  it('gives a built-in its default and a custom role no profile until one is written', async () => {
    const dir = await home();
    expect(await loadProfile(dir, 'Builder')).toMatchObject({ source: 'default', profile: DEFAULT_PROFILES.builder, path: path.join(dir, 'roles', 'builder.md') });
    expect(await loadProfile(dir, 'Sound Designer')).toMatchObject({ source: 'none', profile: null });
  });

  it('saves atomically under roles/<role key>.md and reads the same profile back', async () => {
    const dir = await home();
    const profile = { description: 'Mixes.', charter: 'Keep it quiet.', tools: { deny: ['shell' as const] }, models: { codex: 'gpt-5-codex' } };
    const file = await saveProfile(dir, 'Sound  Designer', profile);
    expect(file).toBe(path.join(dir, 'roles', 'sound designer.md'));
    expect(await readdir(path.join(dir, 'roles'))).toEqual(['sound designer.md']);
    expect(await loadProfile(dir, 'sound designer')).toMatchObject({ source: 'file', profile });
    expect(await readFile(file, 'utf8')).toMatch(/^---\ndescription: Mixes\.\n/);
  });

  it('reports a bad file and keeps the role working on its default', async () => {
    const dir = await home();
    await mkdir(path.join(dir, 'roles'), { recursive: true });
    await writeFile(profilePath(dir, 'reviewer'), '---\ndescription: ok\nunknown: 1\n---\n');
    const loaded = await loadProfile(dir, 'reviewer');
    expect(loaded).toMatchObject({ source: 'default', profile: DEFAULT_PROFILES.reviewer, problem: expect.stringMatching(/is not used: unknown: unknown field/) });
    expect(await readFile(profilePath(dir, 'reviewer'), 'utf8')).toContain('unknown: 1');
  });
});
