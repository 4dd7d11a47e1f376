/**
 * The launch service behind the contract: recent folders from discovery, the configured terminal found or off, and a
 * terminal opened attached to a launched persona's session (a stand-in terminal records the vector it got).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Candidate } from '../../../shared/schemas';
import { createApp } from '../../setup/app';
import { launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { LaunchService, recentFolders, terminalProgram } from './LaunchService';

const fixture = launchFixture('pixelfleet-launch-service-');
afterAll(() => fixture.dispose());

function candidate(id: string, cwd: string | null): Candidate {
  return { id, harness: 'codex', seat: { harness: 'codex', home: '/h', sessionId: id, cwd }, cwdHint: cwd, lastActivity: '2026-01-01T00:00:00.000Z', size: 1 };
}

describe('launch options', () => {
  it('offers each absolute working folder once, newest first, up to the limit', () => {
    const list = [candidate('a', '/w/one'), candidate('b', null), candidate('c', 'relative'), candidate('d', '/w/one'), candidate('e', '/w/two'), candidate('f', '/w/three')];
    expect(recentFolders(list)).toEqual(['/w/one', '/w/two', '/w/three']);
    expect(recentFolders(list, 2)).toEqual(['/w/one', '/w/two']);
  });

  it('turns the terminal off when it is not set or not found', () => {
    const { dir } = fixture.setup();
    const program = path.join(dir, 'bin', 'claude');
    expect(terminalProgram(null, { PATH: path.dirname(program) })).toBeNull();
    expect(terminalProgram({ command: ['claude', '-e'] }, { PATH: path.dirname(program) })).toBe(program);
    expect(terminalProgram({ command: [program] }, { PATH: '' })).toBe(program);
    expect(terminalProgram({ command: ['no-such-terminal'] }, { PATH: path.dirname(program) })).toBeNull();
    expect(terminalProgram({ command: ['bin/claude'] }, { PATH: dir })).toBeNull();
  });
});

describe.skipIf(!tmux)('attach and the terminal', () => {
  it('gives the attach command of a launched persona and opens the configured terminal attached, as a vector', async () => {
    const { dir, env } = fixture.setup();
    const terminal = path.join(dir, 'bin', 'my terminal');
    const record = path.join(dir, 'terminal-argv.json');
    writeFileSync(terminal, `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
    chmodSync(terminal, 0o755);
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      const service = new LaunchService({ fleet: app.fleet, personas: app.personas, env, terminal: { command: [terminal, '-e'] } });
      const options = await service.launchOptions();
      expect(options.unavailable).toBeNull();
      expect(options.harnesses.map((entry) => entry.available)).toEqual([true, true, true]);
      expect(options.suggestedName.length).toBeGreaterThan(0);

      const launched = await service.launch({ harness: 'opencode', role: 'builder', cwd: dir, name: 'Ada' });
      expect(launched).toMatchObject({ seated: true, tmuxSession: 'pf-ada', attach: `tmux -L ${fixture.socket} attach -t pf-ada` });
      expect((await service.launchOptions()).folders).toEqual([dir]);
      expect(await service.attach(launched.persona.id)).toEqual({ session: 'pf-ada', command: launched.attach, terminal: true });

      expect(await service.openTerminal(launched.persona.id)).toEqual({ opened: true, reason: null });
      const argv = await until(() => (existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) : undefined));
      expect(argv).toEqual(['-e', tmux, '-L', fixture.socket, 'attach', '-t', 'pf-ada']);

      const off = new LaunchService({ fleet: app.fleet, personas: app.personas, env, terminal: { command: ['no-such-terminal'] } });
      expect(await off.openTerminal(launched.persona.id)).toEqual({ opened: false, reason: 'The terminal no-such-terminal in settings.json was not found.' });
      expect((await off.attach(launched.persona.id)).terminal).toBe(false);
      const hired = await app.personas.hire({ name: 'Never launched' });
      expect(await service.attach(hired.id)).toEqual({ session: null, command: null, terminal: true });
    } finally {
      await app.dispose();
    }
  }, 30_000);

  it('says launch is unavailable, with how to install tmux, when tmux is not on PATH', async () => {
    const { dir, env } = fixture.setup();
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      const service = new LaunchService({ fleet: app.fleet, personas: app.personas, env: { ...env, PATH: path.join(dir, 'bin') }, terminal: null });
      const options = await service.launchOptions();
      expect(options.unavailable).toMatch(/^Launch needs tmux, which is not on PATH: install it with .*apt-get install tmux/);
    } finally {
      await app.dispose();
    }
  });
});
