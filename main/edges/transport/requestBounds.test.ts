// Every string a client may send has a length bound (ids 200, paths 4,096, names and roles as their rules count). An
// over-long value is refused, over the router and on the command line, with an error naming the field that shows at
// most 80 characters of the value, and nothing changes.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../setup/app';
import { main } from '../cli';
import { assistantLine, isoAt, textBlock } from '../../dev/testing/claudeJournal';

let root: string;
let app: App;
let env: NodeJS.ProcessEnv;

/** The longest run of one character in a text: how much of a filler value an error repeats. */
function longestRun(text: string, character: string): number {
  let longest = 0;
  let run = 0;
  for (const each of text) {
    run = each === character ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pixelfleet-bounds-'));
  const claude = join(root, 'claude');
  await mkdir(join(claude, 'projects', '-work-app'), { recursive: true });
  await writeFile(join(claude, 'projects', '-work-app', 's-real.jsonl'), `${assistantLine({ sessionId: 's-real', at: isoAt(0) }, 'm1', [textBlock('hi')])}\n`);
  env = { HOME: root, PIXELFLEET_HOME: join(root, 'app'), CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(root, 'codex'), XDG_DATA_HOME: join(root, 'data'), OPENCODE_DB: '' };
  app = await createApp({ home: join(root, 'app'), mode: 'web', env, live: false, log: () => {} });
});
afterEach(async () => {
  await app.dispose();
  await rm(root, { recursive: true, force: true });
});

const seat = (change: Record<string, string>) => ({ harness: 'claude', home: '/h', sessionId: 's-real', ...change });
const id = 'Q'.repeat(201);
const path = 'Q'.repeat(4097);

/** Channel, payload and the field the error must name; each carries one over-long run of Q. */
const OVER_LONG: Array<[string, Record<string, unknown>, string]> = [
  ['seats.open', { candidateId: id }, 'candidateId'],
  ['seats.open', { candidateId: 'claude:s-real', name: 'Q'.repeat(49) }, 'name'],
  ['seats.open', { candidateId: 'claude:s-real', role: 'Q'.repeat(25) }, 'role'],
  ['seats.close', { seatId: id }, 'seatId'],
  ['agents.hire', { name: 'Q'.repeat(49) }, 'name'],
  ['agents.hire', { role: 'Q'.repeat(25) }, 'role'],
  ['agents.hire', { seat: seat({ sessionId: id }) }, 'seat.sessionId'],
  ['agents.hire', { seat: seat({ home: path }) }, 'seat.home'],
  ['agents.hire', { seat: seat({ cwd: path }) }, 'seat.cwd'],
  ['agents.hire', { seat: seat({ path }) }, 'seat.path'],
  ['personas.setRole', { personaId: id, role: null }, 'personaId'],
  ['personas.setRole', { personaId: 'p', role: 'Q'.repeat(1_000_000) }, 'role'],
  ['personas.moveSeat', { personaId: 'p', seat: seat({ path }) }, 'seat.path'],
  ['personas.rename', { personaId: 'p', name: 'Q'.repeat(49) }, 'name'],
  ['work.items', { label: 'Q'.repeat(25) }, 'label'],
  ['subagents.replay', { seat: id, nativeId: 'n' }, 'seat'],
  ['subagents.replay', { seat: 'claude:s-real', nativeId: id }, 'nativeId'],
  ['subagents.replay', { seat: 'claude:s-real', nativeId: 'n', cursor: 'Q'.repeat(2001) }, 'cursor'],
  ['shell.openExternal', { url: `https://x/${'Q'.repeat(2048)}` }, 'url'],
];

describe('request bounds over the router', () => {
  it.each(OVER_LONG.map(([channel, payload, field]) => ({ channel, payload, field })))('$channel refuses an over-long $field naming it, showing at most 80 characters of it', async ({ channel, payload, field }) => {
    const answer = await app.router.handle(channel, payload);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalid_request');
    expect(answer.error.message).toContain(`${field}: is too long`);
    expect(longestRun(answer.error.message, 'Q')).toBeLessThanOrEqual(80);
    expect(answer.error.message.length).toBeLessThan(400);
    expect(await app.personas.list()).toEqual([]);
  });

  it('accepts values at the bound, counting names and roles as their rules do (code points, not UTF-16 units)', async () => {
    const name = '🐙'.repeat(48);
    const hired = await app.router.handle('agents.hire', { name, role: 'é'.repeat(24), seat: seat({ cwd: 'c'.repeat(4096), path: 'p'.repeat(4096) }) });
    expect(hired).toMatchObject({ ok: true, value: { name, role: 'é'.repeat(24) } });
  });

  it('shows at most 80 characters of an unknown field name, and at most three of them', async () => {
    const answer = await app.router.handle('fleet.read', { ['K'.repeat(5000)]: 1, b: 1, c: 1, d: 1, e: 1 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    if (answer.ok) return;
    expect(longestRun(answer.error.message, 'K')).toBeLessThanOrEqual(80);
    expect(answer.error.message).toContain('(and 2 more): unknown field');
  });
});

describe('request bounds on the command line', () => {
  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
    return { code, stdout, stderr };
  }

  it.each([
    { what: 'seats open <candidate id>', argv: ['seats', 'open', id] },
    { what: 'seats close <seat id>', argv: ['seats', 'close', id] },
    { what: 'agents role <persona>', argv: ['agents', 'role', id, 'builder'] },
    { what: 'agents attach <persona>', argv: ['agents', 'attach', id] },
    { what: 'agents launch --cwd', argv: ['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', path] },
    { what: 'replay <native id>', argv: ['replay', 'claude', 'x.jsonl', id] },
    { what: 'replay --cursor', argv: ['replay', 'claude', 'x.jsonl', 'n', '--cursor', 'Q'.repeat(2001)] },
    { what: 'inspect claude <path>', argv: ['inspect', 'claude', path] },
    { what: 'inspect opencode <session id>', argv: ['inspect', 'opencode', id] },
  ])('$what refuses an over-long value, showing at most 80 characters of it', async ({ argv }) => {
    const result = await cli(...argv);
    expect(result.code).toBeGreaterThan(0);
    expect(result.stderr).toMatch(/is too long \(an? [a-z ]+ is at most [\d]+ characters; this one starts "Q{79}…"\)/);
    expect(longestRun(result.stderr, 'Q')).toBeLessThanOrEqual(80);
  });

  it('refuses over-long names, roles and labels by their rules without repeating them', async () => {
    for (const argv of [['agents', 'hire', '--name', 'Q'.repeat(5000)], ['agents', 'hire', '--role', 'Q'.repeat(5000)], ['seats', 'open', 'claude:s-real', '--name', 'Q'.repeat(5000)], ['work-items', '--label', 'Q'.repeat(5000)]]) {
      const result = await cli(...argv);
      expect(result.code).toBeGreaterThan(0);
      expect(result.stderr).toMatch(/at most (48|24) characters/);
      expect(longestRun(result.stderr, 'Q')).toBeLessThanOrEqual(80);
    }
    expect(await app.personas.list()).toEqual([]);
  });
});
