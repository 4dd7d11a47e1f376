// Hostile Claude usage lines (issue 36) through the real reader over a real journal: each figure valid alone but the
// context sum past the contract's bound, appended to an already open healthy seat, never breaks the seat's usage.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { escapeCwd } from './locate';
import { createClaudeReader } from './reader';

const SESSION = 'h0000000-0000-4000-8000-000000000036';
const CWD = '/work/app';
let home: string;
let journal: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-hostile-'));
  await mkdir(path.join(home, 'projects', escapeCwd(CWD)), { recursive: true });
  journal = path.join(home, 'projects', escapeCwd(CWD), `${SESSION}.jsonl`);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const seat = (): SeatAddress => ({ harness: 'claude', home, sessionId: SESSION, cwd: CWD, path: journal });
const line = (id: string, usage: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'assistant', sessionId: SESSION, cwd: CWD, uuid: `u-${id}`, timestamp: '2026-05-01T09:00:00.000Z', requestId: `r-${id}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], usage } })}\n`;

describe('hostile Claude usage', () => {
  it('input 6·10^11 + cache read 6·10^11 appended to an open seat: skipped and counted, the context stays the last valid one', async () => {
    await writeFile(journal, line('m1', { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 1_000 }));
    const reader = createClaudeReader({ home });
    const first = await reader.project(seat());
    if (!first.ok) throw new Error(first.reason);
    expect(UsageSchema.parse(first.usage).context?.used).toBe(1_010);
    await appendFile(journal, line('m2', { input_tokens: 6e11, output_tokens: 5, cache_read_input_tokens: 6e11 }));
    const next = await reader.project(seat());
    reader.dispose();
    if (!next.ok) throw new Error(next.reason);
    const usage = UsageSchema.parse(next.usage);
    expect(usage.context?.used).toBe(1_010);
    expect(usage.totals.input).toBe(10);
    expect(usage.skipped).toBe(1);
  });

  it('totals that would pass 10^12 skip the record that carries them past, never cap at exactly 10^12', async () => {
    await writeFile(journal, line('a', { input_tokens: 7e11, output_tokens: 1 }) + line('b', { input_tokens: 7e11, output_tokens: 1 }) + line('c', { input_tokens: 5, output_tokens: 1 }));
    const reader = createClaudeReader({ home });
    const projection = await reader.project(seat());
    reader.dispose();
    if (!projection.ok) throw new Error(projection.reason);
    const usage = UsageSchema.parse(projection.usage);
    expect(usage.totals.input).toBe(7e11 + 5);
    expect(usage.skipped).toBe(1);
    // The skipped record never feeds the context: the last one counted does.
    expect(usage.context?.used).toBe(5);
  });
});

describe('a last line over the cold window', () => {
  it('a 3 MiB last line (a pasted screenshot) is read whole on a cold read: the agent is working, not idle', async () => {
    const user = (uuid: string, content: unknown) => `${JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.114', type: 'user', uuid, timestamp: new Date().toISOString(), message: { role: 'user', content } })}\n`;
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(3 * 1024 * 1024) } };
    await writeFile(journal, line('m1', { input_tokens: 10, output_tokens: 5 }) + user('u-2', [{ type: 'text', text: 'What is wrong here?' }, image]));
    const reader = createClaudeReader({ home });
    const projection = await reader.project(seat());
    reader.dispose();
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.activity.current.state).toBe('working');
    expect(projection.activity.current.certain).toBe(true);
  });
});
