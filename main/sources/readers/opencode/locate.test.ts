import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../kit/errors';
import { openCodeDataDir, resolveOpenCodeDb, resolveOpenCodeDbs, seatFromCliTarget } from './locate';
import { perTestCleanups } from '../../../dev/testing/cleanups';
import { StoreWriter } from '../../../dev/testing/opencodeStore';

const { tempDir } = perTestCleanups();

describe('database resolution', () => {
  it('uses $XDG_DATA_HOME/opencode, else ~/.local/share/opencode', () => {
    expect(openCodeDataDir({ XDG_DATA_HOME: '/xdg', HOME: '/home/me' })).toBe('/xdg/opencode');
    expect(openCodeDataDir({ HOME: '/home/me' })).toBe('/home/me/.local/share/opencode');
  });

  it('honours $OPENCODE_DB: absolute, relative to the data folder, and :memory: (no file)', () => {
    expect(resolveOpenCodeDb({ OPENCODE_DB: '/db/custom.db', XDG_DATA_HOME: '/xdg' })).toBe('/db/custom.db');
    expect(resolveOpenCodeDb({ OPENCODE_DB: 'mine.db', XDG_DATA_HOME: '/xdg' })).toBe('/xdg/opencode/mine.db');
    expect(resolveOpenCodeDb({ OPENCODE_DB: ':memory:', XDG_DATA_HOME: '/xdg' })).toBeNull();
  });

  it('lists opencode*.db of the data folder, opencode.db first, then the newest channel', () => {
    const xdg = tempDir();
    const dir = join(xdg, 'opencode');
    expect(resolveOpenCodeDb({ XDG_DATA_HOME: xdg })).toBeNull();
    mkdirSync(dir);
    for (const name of ['opencode-local.db', 'opencode-dev.db', 'opencode.db-wal', 'other.db']) writeFileSync(join(dir, name), '');
    utimesSync(join(dir, 'opencode-local.db'), 1, 1);
    expect(resolveOpenCodeDbs({ XDG_DATA_HOME: xdg })).toEqual([join(dir, 'opencode-dev.db'), join(dir, 'opencode-local.db')]);
    writeFileSync(join(dir, 'opencode.db'), '');
    expect(resolveOpenCodeDb({ XDG_DATA_HOME: xdg })).toBe(join(dir, 'opencode.db'));
  });
});

describe('seatFromCliTarget', () => {
  it('looks the session directory up in the database given with --db', async () => {
    const home = join(tempDir(), 'opencode.db');
    const writer = new StoreWriter(home);
    writer.session('ses_target1', { directory: '/work/project' });
    writer.close();
    expect(await seatFromCliTarget('ses_target1', { db: home }, {})).toEqual({
      harness: 'opencode',
      home,
      sessionId: 'ses_target1',
      cwd: '/work/project',
      path: null,
    });
    expect((await seatFromCliTarget('ses_unknown1', { db: home }, {})).cwd).toBeNull();
  });

  it('refuses a target that is not a session id, and a missing database', async () => {
    await expect(seatFromCliTarget('../etc', { db: '/nowhere.db' }, {})).rejects.toBeInstanceOf(ServiceError);
    await expect(seatFromCliTarget('ses_abc', { db: join(tempDir(), 'missing.db') }, {})).rejects.toThrow(/does not exist/);
    await expect(seatFromCliTarget('ses_abc', {}, { XDG_DATA_HOME: tempDir() })).rejects.toThrow(/No OpenCode database/);
  });
});
