import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cwdFromHead, discoverSessions, findSession } from './discover';

describe('cwdFromHead', () => {
  it('takes the absolute cwd of the first whole line that has one', () => {
    const head = ['{"type":"file-history-snapshot"}', '{"type":"user","cwd":"/home/ada/src/lantern.parser"}', '{"cwd":"/elsewhere"}', ''].join('\n');
    expect(cwdFromHead(head)).toBe('/home/ada/src/lantern.parser');
    expect(cwdFromHead('{"cwd":"C:\\\\src\\\\app"}\n')).toBe('C:\\src\\app');
  });

  it('skips a line cut by the end of the head, one that is not JSON, and a relative or non-text cwd', () => {
    expect(cwdFromHead('{"cwd":"/whole/but/last"}')).toBeNull();
    expect(cwdFromHead('"cwd" in prose\n{"cwd":"/later"}\n')).toBe('/later');
    expect(cwdFromHead('{"cwd":""}\n{"cwd":42}\n{"cwd":"relative/path"}\nnull\n{}\n')).toBeNull();
  });
});

describe('discovery walks plain files only', () => {
  it('lists and finds a session whose journal is a file, never one that is a link to a file elsewhere', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'pixelfleet-claude-links-'));
    try {
      const folder = path.join(home, 'projects', '-home-owner-app');
      await mkdir(folder, { recursive: true });
      const line = JSON.stringify({ type: 'user', cwd: '/home/owner/app', message: { role: 'user', content: 'hi' } }) + '\n';
      await writeFile(path.join(folder, 'plain-session.jsonl'), line);
      const outside = path.join(home, 'elsewhere.jsonl');
      await writeFile(outside, line);
      await symlink(outside, path.join(folder, 'linked-session.jsonl'));
      const listed = await discoverSessions(home, 10);
      expect(listed.map((candidate) => candidate.seat.sessionId)).toEqual(['plain-session']);
      expect(await findSession(home, 'linked-session')).toBeNull();
      expect((await findSession(home, 'plain-session'))?.seat.cwd).toBe('/home/owner/app');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
