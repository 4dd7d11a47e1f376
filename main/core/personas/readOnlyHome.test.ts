// A role change on a read-only app home (issue 36) answers `unavailable` with one clear line, never `internal` with a
// stack, and the store is unchanged. Real read-only folders: a chmod as a user, a read-only tmpfs as root.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../kit/errors';
import { PersonaService, unwritable } from './PersonaService';

const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
});

/** Makes `dir` read-only for this process; false when that cannot be done here. */
function makeReadOnly(dir: string): boolean {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o500);
    undo.push(() => chmodSync(dir, 0o700));
    return true;
  }
  try {
    execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A fresh home: a tmpfs when root (so it can be remounted read-only), else a temp folder. */
function freshHome(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-ro-home-'));
  undo.push(() => rmSync(dir, { recursive: true, force: true }));
  if (process.getuid?.() !== 0) return dir;
  try {
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', dir], { stdio: 'ignore' });
    undo.push(() => execFileSync('umount', [dir], { stdio: 'ignore' }));
    return dir;
  } catch {
    return null;
  }
}

describe('a read-only app home', () => {
  it('a role change is unavailable, in one line naming the file, and nothing changes', async () => {
    const home = freshHome();
    if (!home) {
      console.log('skipped: running as root without a way to mount a read-only folder');
      return;
    }
    const file = join(home, 'personas.json');
    const service = new PersonaService({ file });
    const ada = await service.hire({ name: 'Ada', role: 'builder' });
    const before = readFileSync(file, 'utf8');
    if (!makeReadOnly(home)) {
      console.log('skipped: the folder could not be made read-only here');
      return;
    }
    const error = await service.setRole(ada.id, 'tester').then(() => null, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('unavailable');
    expect((error as ServiceError).message).toContain('personas.json cannot be written');
    expect((error as ServiceError).message).not.toContain('\n');
    expect(readFileSync(file, 'utf8')).toBe(before);
    service.dispose();
  });

  it('maps a full disk and a read-only file system, and leaves other errors as they are', () => {
    const error = (code: string) => Object.assign(new Error(`${code}: nope`), { code });
    expect(unwritable(error('ENOSPC'), '/h/personas.json')?.message).toContain('the disk is full');
    expect(unwritable(error('EROFS'), '/h/personas.json')?.code).toBe('unavailable');
    expect(unwritable(error('ENOENT'), '/h/personas.json')).toBeNull();
  });
});
