/**
 * A remote agent's terminal (issue 39): peek, send and dialog keys for `@host:persona` go to the agent's own host
 * through the remote's stream (a stand-in `ssh` running `pixelfleet serve --stdio` in the remote's home), where its
 * tmux pane runs; the live panel is not streamed across hosts yet and says so.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../setup/app';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { installQuestionStandin } from '../../dev/testing/terminalStandin';
import { addRemote } from './remoteStore';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = path.join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const PIXELFLEET = `${process.execPath} ${path.join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;

if (!tmux) console.log('remote terminal test skipped: tmux is not on PATH (apt-get install tmux)');
const fixture = launchFixture('pixelfleet-remote-terminal-');
afterAll(() => fixture.dispose());

describe.skipIf(!tmux)('a remote agent’s terminal', () => {
  it('peek, send and the live stream reach the pane on the agent’s own host (issue 42 streams it back)', async () => {
    const { dir, env } = fixture.setup();
    installQuestionStandin(path.join(dir, 'bin'));
    const standinRoot = path.join(dir, 'hosts');
    const remoteHome = path.join(standinRoot, 'boxa');
    const remoteEnv = { ...env, PIXELFLEET_HOME: remoteHome, CLAUDE_CONFIG_DIR: path.join(remoteHome, 'claude'), CODEX_HOME: path.join(remoteHome, 'codex'), XDG_DATA_HOME: path.join(remoteHome, 'data') };
    const project = path.join(dir, 'remote project');
    mkdirSync(project);
    mkdirSync(remoteEnv.CLAUDE_CONFIG_DIR, { recursive: true });
    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', project, '--name', 'Rem', '--json'], remoteEnv);
    expect(launched.stderr).toBe('');
    const persona = JSON.parse(launched.stdout).persona;

    const home = path.join(dir, 'local');
    await addRemote(home, { name: 'boxa', destination: 'boxa', command: PIXELFLEET });
    const app = await createApp({ home, mode: 'web', live: false, env: { ...env, PIXELFLEET_HOME: home, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: standinRoot }, log: () => {} });
    try {
      const remoteId = `@boxa:${persona.id}`;
      const peeked = await until(async () => {
        const answer = await app.router.handle('terminal.peek', { personaId: remoteId });
        return answer.ok && (answer.value as { lines: string[] }).lines.includes('Which colour should the button be?') ? answer.value : undefined;
      }, 30_000);
      expect(peeked).toMatchObject({ persona: remoteId, target: expect.stringMatching(/^pf-rem:/) });
      const sent = await app.router.handle('terminal.send', { personaId: remoteId, text: 'remote teal', waitMs: 20_000 });
      expect(sent).toEqual({ ok: true, value: { delivered: true, acknowledged: true } });
      const journal = readFileSync(path.join(remoteEnv.CLAUDE_CONFIG_DIR, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${persona.seat.sessionId}.jsonl`), 'utf8');
      expect(journal.trim().split('\n').map((line) => JSON.parse(line)).at(-1).message.content[0].content).toBe('remote teal');
      const watched = await app.router.handle('terminal.watch', { personaId: remoteId });
      expect(watched).toMatchObject({ ok: true, value: { streamId: expect.stringMatching(/^@boxa:/) } });
      const streamId = (watched as { value: { streamId: string } }).value.streamId;
      expect(await app.router.handle('terminal.unwatch', { streamId })).toMatchObject({ ok: true });
    } finally {
      await app.dispose();
    }
  }, 90_000);
});
