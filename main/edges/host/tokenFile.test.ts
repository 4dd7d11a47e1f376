// The token kept in the app home: reused across starts, rotated on request, and replaced (with one log line) when
// its file is unreadable, of the wrong mode or malformed. Real files in a temporary home.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadToken, parseTokenFile, saveToken, tokenFilePath } from './tokenFile';

let home: string;
let logged: string[];
const log = (line: string) => logged.push(line);

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'pixelfleet-token-'));
  logged = [];
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('the token file', () => {
  it('is made on the first start with mode 0600 and reused by the next, with the port recorded', async () => {
    const first = await loadToken(home, { rotate: false, log });
    expect(first.fresh).toBe(true);
    expect((await stat(tokenFilePath(home))).mode & 0o777).toBe(0o600);
    await saveToken(home, { token: first.token, port: 4321 });
    const second = await loadToken(home, { rotate: false, log });
    expect(second).toEqual({ token: first.token, port: 4321, fresh: false });
    expect(logged).toEqual([]);
  });

  it('--new-token makes a new one and writes it', async () => {
    const first = await loadToken(home, { rotate: false, log });
    const rotated = await loadToken(home, { rotate: true, log });
    expect(rotated.token).not.toBe(first.token);
    expect(JSON.parse(await readFile(tokenFilePath(home), 'utf8')).token).toBe(rotated.token);
  });

  it('a file readable by others is replaced, with one log line naming the mode', async () => {
    const first = await loadToken(home, { rotate: false, log });
    await chmod(tokenFilePath(home), 0o644);
    const next = await loadToken(home, { rotate: false, log });
    expect(next.token).not.toBe(first.token);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('0644');
    expect((await stat(tokenFilePath(home))).mode & 0o777).toBe(0o600);
  });

  it('a malformed file is replaced, with one log line', async () => {
    await writeFile(tokenFilePath(home), '{"version":1,"token":"short"', { mode: 0o600 });
    const next = await loadToken(home, { rotate: false, log });
    expect(next.fresh).toBe(true);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('is not JSON');
  });

  it('an unreadable file (a folder in its place) gives a new token that lasts the run, and says so', async () => {
    await mkdir(tokenFilePath(home));
    const next = await loadToken(home, { rotate: false, log });
    expect(next.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(logged[0]).toContain('is not a regular file');
  });

  it('parses only well-formed files', () => {
    expect(parseTokenFile('{"version":1,"token":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","port":80}')).toEqual({ ok: true, value: { token: 'a'.repeat(32), port: 80 } });
    expect(parseTokenFile('{"version":2,"token":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}').ok).toBe(false);
    expect(parseTokenFile('{"version":1,"token":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","port":70000}').ok).toBe(false);
    expect(parseTokenFile('[]').ok).toBe(false);
  });
});
