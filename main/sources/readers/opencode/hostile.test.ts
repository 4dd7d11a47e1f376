// Hostile OpenCode records (issue 36) through the real reader over a real SQLite store: every figure the seat gives
// passes the contract, a bad row is skipped and counted (never the whole seat), and huge rows are measured first.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SubagentSummarySchema, type SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { makeTempDir, StoreWriter } from '../../../dev/testing/opencodeStore';
import { createOpenCodeReader } from './reader';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const PARENT = 'ses_hostileParent001';
const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
const assistant = (time: number, fields: Record<string, unknown>) => ({ role: 'assistant', modelID: 'claude-sonnet-4-5', time: { created: time, completed: time }, ...fields });
const tokens = (input: unknown, output: unknown, read: unknown, write: unknown) => ({ input, output, reasoning: 0, cache: { read, write } });

function store(): StoreWriter {
  const temp = makeTempDir();
  const writer = new StoreWriter(join(temp.dir, 'opencode.db'));
  cleanups.push(temp.remove, () => writer.close());
  writer.session(PARENT, { time: T0 });
  // One valid message first: the figures the seat must keep whatever follows.
  writer.message(PARENT, T0 + 1, assistant(T0 + 1, { tokens: tokens(100, 20, 1_000, 500), cost: 0.01 }));
  return writer;
}

async function project(writer: StoreWriter) {
  const seat: SeatAddress = { harness: 'opencode', home: writer.path, sessionId: PARENT, cwd: '/work/repo', path: null };
  const reader = createOpenCodeReader({ db: writer.path });
  try {
    const projection = await reader.project(seat);
    if (!projection.ok) throw new Error(projection.reason);
    SubagentSummarySchema.parse(projection.subagents);
    return UsageSchema.parse(projection.usage);
  } finally {
    reader.dispose();
  }
}

describe('hostile OpenCode records', () => {
  it('a last message with cache.read 10^15 is skipped for totals and context; the valid message gives both', async () => {
    const writer = store();
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: tokens(10, 1, 1e15, 0), cost: 0.01 }));
    const usage = await project(writer);
    expect(usage.totals).toMatchObject({ input: 100, output: 20, cacheRead: 1_000, cacheWrite: 500 });
    expect(usage.context?.used).toBe(1_600);
    expect(usage.skipped).toBe(1);
  });

  it.each([
    ['cache.read 0.5', tokens(10, 1, 0.5, 0)],
    ['cache.write −100', tokens(10, 1, 0, -100)],
    ['cache.read "1e15"', tokens(10, 1, '1e15', 0)],
    ['input 10^15', tokens(1e15, 1, 0, 0)],
  ])('%s is skipped and counted, never the context', async (_name, figures) => {
    const writer = store();
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: figures, cost: 0.01 }));
    const usage = await project(writer);
    expect(usage.context?.used).toBe(1_600);
    expect(usage.skipped).toBe(1);
  });

  it('five figures of 9·10^11 (each valid, the context sum past the bound) give no context, and the totals stay in bounds', async () => {
    const writer = store();
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: { input: 9e11, output: 9e11, reasoning: 9e11, cache: { read: 9e11, write: 9e11 } }, cost: 0.01 }));
    const usage = await project(writer);
    expect(usage.context).toBeNull();
    // The record would carry the totals past 10^12 with the first one: skipped, not capped.
    expect(usage.totals.input).toBe(9e11 + 100);
    writer.message(PARENT, T0 + 3, assistant(T0 + 3, { tokens: tokens(9e11, 1, 0, 0), cost: 0.01 }));
    const after = await project(writer);
    expect(after.totals.input).toBe(9e11 + 100);
    expect(after.skipped).toBe(1);
  });

  it('a cost of 10^300 (or 1.8·10^302 twice) is not a price: the seat shows no cost, never "$1e+300" or Infinity', async () => {
    const writer = store();
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: tokens(10, 1, 0, 0), cost: 1e300 }));
    expect((await project(writer)).cost).toBeUndefined();
    const other = store();
    other.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: tokens(10, 1, 0, 0), cost: 1.8e302 }));
    other.message(PARENT, T0 + 3, assistant(T0 + 3, { tokens: tokens(10, 1, 0, 0), cost: 1.8e302 }));
    expect((await project(other)).cost).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"role":"assistant","tokens":'],
    ['NULs', `{"role":"assistant",${'\u0000'.repeat(64)}"tokens":{"input":1,"output":1}}`],
    ['nested 1,100 deep', `{"role":"assistant","x":${'['.repeat(1_100)}${']'.repeat(1_100)}}`],
  ])('one row that is %s is skipped and counted, never the whole seat', async (_name, data) => {
    const writer = store();
    writer.message(PARENT, T0 + 2, data);
    const usage = await project(writer);
    expect(usage.totals.input).toBe(100);
    expect(usage.skipped).toBe(1);
  });

  it('a row stored as a BLOB is skipped and counted', async () => {
    const writer = store();
    writer.database.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run('msg_blob', PARENT, T0 + 2, T0 + 2, Buffer.from('{"role":"assistant"}'));
    const usage = await project(writer);
    expect(usage.totals.input).toBe(100);
    expect(usage.skipped).toBe(1);
  });

  it('a 10 MB message row is measured before it is parsed: skipped and counted', async () => {
    const writer = store();
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { tokens: tokens(5, 1, 0, 0), cost: 0.01, text: 'x'.repeat(10 * 1024 * 1024) }));
    const usage = await project(writer);
    expect(usage.totals.input).toBe(100);
    expect(usage.skipped).toBe(1);
  });

  it('garbage message times never fail the seat ("Invalid time value")', async () => {
    const writer = store();
    writer.database.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run('msg_time', PARENT, 1e20, 1e20, JSON.stringify(assistant(1e20, { tokens: tokens(1, 1, 0, 0), cost: 0 })));
    const usage = await project(writer);
    expect(usage.totals.input).toBe(101);
  });
});
