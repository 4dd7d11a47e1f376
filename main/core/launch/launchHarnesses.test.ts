/**
 * Hire and launch for each harness over real tmux and stand-ins that write in the real formats: Codex and OpenCode are
 * seated by the first new session for the folder; a harness that writes nothing leaves the persona hired without a
 * seat, with the reason; Claude Code carries the role's exported agent by the flag its version offers; and a renamed
 * persona keeps its tmux session.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../setup/app';
import { renderClaude } from '../roles/targets';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { launch } from './launcher';

if (!tmux) console.log('launch harness tests skipped: tmux is not on PATH (apt-get install tmux)');

const fixture = launchFixture('pixelfleet-launch-harness-');
afterAll(() => fixture.dispose());

/** A folder name and a prompt that a shell would mangle. */
const AWKWARD_FOLDER = `repo with 'quotes' "and" $(touch pwned) spaces`;
const AWKWARD_PROMPT = `Fix "it" and 'that' $(touch pwned) \`touch pwned\` ; exit`;

async function fleetSeat(env: NodeJS.ProcessEnv, personaId: string) {
  const snapshot = JSON.parse((await cli(['fleet', '--json'], env)).stdout);
  return {
    seat: snapshot.seats.find((entry: { personaId: string }) => entry.personaId === personaId),
    persona: snapshot.personas.find((entry: { id: string }) => entry.id === personaId),
  };
}

describe.skipIf(!tmux)('Codex and OpenCode seating', () => {
  it.each([
    ['codex', (cwd: string) => ['--cd', cwd, AWKWARD_PROMPT]],
    ['opencode', (cwd: string) => [cwd, '--prompt', AWKWARD_PROMPT]],
  ] as const)('launches %s, seats the first new session for the folder with the role, and passes folder and prompt verbatim', async (harness, expectedArgv) => {
    const { dir, env, homes } = fixture.setup();
    const cwd = path.join(dir, AWKWARD_FOLDER);
    mkdirSync(cwd);
    const launched = await cli(['agents', 'launch', '--harness', harness, '--role', 'tester', '--cwd', cwd, '--name', `Quill ${harness}`, '--prompt', AWKWARD_PROMPT, '--json'], env);
    expect(launched.stderr).toBe('');
    expect(launched.code).toBe(0);
    const result = JSON.parse(launched.stdout);
    expect(result).toMatchObject({ seated: true, reason: null, tmuxSession: `pf-quill-${harness}` });
    expect(result.persona.seat).toMatchObject({ harness, cwd });

    const recorded = await fixture.recorded(homes[harness]);
    expect(recorded.argv).toEqual(expectedArgv(cwd));
    expect(recorded.cwd).toBe(cwd);

    const { seat, persona } = await fleetSeat(env, result.persona.id);
    expect(seat.harness).toBe(harness);
    expect(seat.address.cwd).toBe(cwd);
    expect(persona.role).toBe('tester');

    const stopped = await cli(['agents', 'stop', result.persona.id], env);
    expect(stopped.code).toBe(0);
    expect(fixture.tmuxHas(result.tmuxSession)).toBe(false);
  }, 30_000);

  it('leaves the persona hired without a seat, with the reason, when no session appears within the window', async () => {
    const { dir, env, homes } = fixture.setup();
    writeFileSync(path.join(homes.codex, 'standin-silent'), '');
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      const result = await launch({ harness: 'codex', role: 'tester', cwd: dir, name: 'Silent' }, { fleet: app.fleet, personas: app.personas, env, seatDeadlineMs: 1000, pollMs: 100 });
      expect(result.seated).toBe(false);
      expect(result.reason).toBe(`No new codex session appeared for ${dir} within 1 s; the persona stays hired without a seat.`);
      expect(fixture.tmuxHas(result.tmuxSession)).toBe(true);
      const persona = (await app.personas.list()).find((entry) => entry.id === result.persona.id);
      expect(persona).toMatchObject({ name: 'Silent', role: 'tester' });
      expect(persona?.seat ?? null).toBeNull();
    } finally {
      await app.dispose();
    }
    // Never seated, yet stop sends Codex's own exit (the session carries its harness), so it ends without a kill.
    const stopped = await cli(['agents', 'stop', 'Silent'], env);
    expect(stopped).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Stopped pf-silent; Silent and the journal stay\.\n$/) });
  }, 30_000);
});

describe.skipIf(!tmux)('Claude Code with the role exported as an agent', () => {
  const profile = { description: 'Finds what breaks.', charter: 'Break things on purpose, then say how.', tools: { deny: [] }, models: {} };

  it.each([
    ['2.1.114 (Claude Code)', ['--agent', 'tester'], /^Started as the exported agent tester \(--agent\)\.$/],
    ['1.0.60 (Claude Code)', ['--append-system-prompt', profile.charter], /^Claude Code 1\.0\.60 has no --agent; the charter of tester was appended/],
    ['0.2.9 (Claude Code)', [], /^Claude Code 0\.2\.9 offers neither --agent nor --append-system-prompt; started plain, without the agent tester\.$/],
  ] as const)('version %s starts with %j', async (version, flags, note) => {
    const { dir, env, claudeHome } = fixture.setup();
    writeFileSync(path.join(claudeHome, 'standin-version'), `${version}\n`);
    const cwd = path.join(dir, 'project');
    mkdirSync(path.join(cwd, '.claude', 'agents'), { recursive: true });
    writeFileSync(path.join(cwd, '.claude', 'agents', 'tester.md'), renderClaude('tester', profile));
    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'tester', '--cwd', cwd, '--name', 'Probe', '--prompt', 'go', '--json'], env);
    const result = JSON.parse(launched.stdout);
    expect(result.note).toMatch(note);
    const recorded = await fixture.recorded(claudeHome);
    expect(recorded.argv).toEqual(['--session-id', expect.any(String), ...flags, 'go']);
    expect((await cli(['agents', 'stop', 'Probe'], env)).code).toBe(0);
  }, 90_000);

  it('starts plain and says nothing when the role has no exported agent', async () => {
    const { dir, env, claudeHome } = fixture.setup();
    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'tester', '--cwd', dir, '--name', 'Plain', '--json'], env);
    expect(JSON.parse(launched.stdout).note).toBeNull();
    expect((await fixture.recorded(claudeHome)).argv).toEqual(['--session-id', expect.any(String)]);
    expect((await cli(['agents', 'stop', 'Plain'], env)).code).toBe(0);
  }, 90_000);
});

describe.skipIf(!tmux)('a renamed persona', () => {
  it('keeps its tmux session: attach and stop find it by the persona id', async () => {
    const { dir, env } = fixture.setup();
    const launched = JSON.parse((await cli(['agents', 'launch', '--harness', 'opencode', '--role', 'builder', '--cwd', dir, '--name', 'Ada', '--json'], env)).stdout);
    expect(launched.tmuxSession).toBe('pf-ada');
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      await app.personas.rename(launched.persona.id, 'Grace Hopper');
    } finally {
      await app.dispose();
    }
    const attach = await cli(['agents', 'attach', 'Grace Hopper'], env);
    expect(attach).toEqual({ code: 0, stdout: `${launched.attach}\n`, stderr: '' });
    const stopped = await cli(['agents', 'stop', 'Grace Hopper'], env);
    expect(stopped.stdout).toMatch(/^Stopped pf-ada;/);
    await until(() => (fixture.tmuxHas('pf-ada') ? undefined : true));
  }, 90_000);
});
