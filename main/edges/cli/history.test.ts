/**
 * `pixelfleet history` after a scripted demo run: a live demo app records while the test changes a role, runs a
 * subagent to its end and asks the owner a question in a session of its own; the CLI (reading the store beside the
 * running app) lists those transitions at the times they happened, and the digest says who waited.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryDigest, HistoryEvent, HistoryList } from '../../../shared/history';
import { createApp, type App } from '../../setup/app';
import { agentCall, assistantLine, toolCall, toolResult, userLine } from '../../dev/testing/claudeJournal';
import { main } from './index';

const SESSION = '0b9d6a52-27a1-4c1e-9a77-5f1e2d3c4b5a';
let home: string;
let app: App;

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { ...process.env, PIXELFLEET_HOME: home } });
  return { code, stdout, stderr };
}

async function listed(kind?: string, since = '30m'): Promise<HistoryEvent[]> {
  const result = await cli(['history', '--since', since, '--json', ...(kind ? ['--kind', kind] : [])]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as HistoryList).events;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never saw ${what}`);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pf-history-cli-'));
  app = await createApp({ home, mode: 'web', demo: { agents: 3 }, env: { ...process.env, PIXELFLEET_HOME: home }, log: () => {} });
}, 60_000);

afterAll(async () => {
  await app?.dispose();
  rmSync(home, { recursive: true, force: true });
});

describe('pixelfleet history', () => {
  it('refuses a --since it cannot read with exit 2 and says what it takes', async () => {
    const result = await cli(['history', '--since', 'yesterday-ish']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--since "yesterday-ish" is neither a duration \(90s, 15m, 2h, 7d, 1h30m\) nor an ISO time/);
    expect((await cli(['history', '--kind', 'moods'])).code).toBe(2);
    expect((await cli(['history', '--digest', '--seat', 'x'])).code).toBe(2);
    const badUntil = await cli(['history', '--until', 'soonish']);
    expect(badUntil.code).toBe(2);
    expect(badUntil.stderr).toMatch(/--until "soonish" is neither a duration/);
  });

  it('lists the role change, the wait on a question and the ended job the test caused, at their times', async () => {
    // The demo filled the past hour on its first run: something to scrub before anything else happened.
    const past = await listed(undefined, '2h');
    expect(past.length).toBeGreaterThan(20);
    expect(past.some((event) => event.type === 'role')).toBe(true);

    // A role change through the contract, as a drag on a station does it.
    const personas = await app.personas.list();
    const target = personas.find((persona) => persona.role !== 'tester')!;
    const roleAt = Date.now();
    await app.router.handle('personas.setRole', { personaId: target.id, role: 'tester' });
    const role = await until(async () => (await listed('roles')).find((event) => event.type === 'role' && event.personaId === target.id && event.role === 'tester'), 'the role change');
    expect(Date.parse(role.at)).toBeGreaterThanOrEqual(roleAt);
    expect(Date.parse(role.at) - roleAt).toBeLessThan(5000);
    expect(role).toMatchObject({ previous: target.role ?? null, name: target.name });

    // A session of the test's own in the demo's Claude home, opened as a seat.
    const folder = join(home, 'demo', 'claude', 'projects', '-src-history');
    mkdirSync(folder, { recursive: true });
    const journal = join(folder, `${SESSION}.jsonl`);
    const context = (at: number) => ({ sessionId: SESSION, at: new Date(at).toISOString() });
    const startedAt = Date.now();
    writeFileSync(journal, `${assistantLine(context(startedAt), 'msg_1', [agentCall('toolu_job1', 'Map the modules', { subagent_type: 'Explore' })])}\n`);
    await app.router.handle('fleet.candidates', { refresh: true });
    const opened = await app.router.handle('seats.open', { candidateId: `claude:${SESSION}`, name: 'Quill' });
    expect(opened.ok).toBe(true);
    const seatId = `claude:${SESSION}`;
    await until(async () => (await listed('jobs')).find((event) => event.type === 'job.started' && event.seatId === seatId), 'the job start');

    const endedAt = Date.now();
    appendFileSync(journal, `${userLine(context(endedAt), [toolResult('toolu_job1', 'Mapped.')], { status: 'completed', agentId: 'a1b2c3d4e5f6a7b8c' })}\n`);
    const ended = await until(async () => (await listed('jobs')).find((event) => event.type === 'job.ended' && event.seatId === seatId), 'the job end');
    expect(ended).toMatchObject({ outcome: 'completed', jobType: 'Explore', label: 'Map the modules' });
    expect(Math.abs(Date.parse(ended.at) - endedAt)).toBeLessThan(2000);

    const askedAt = Date.now();
    appendFileSync(journal, `${assistantLine(context(askedAt), 'msg_2', [toolCall('toolu_q1', 'AskUserQuestion', { questions: [] })])}\n`);
    const entered = await until(async () => (await listed('needs-you')).find((event) => event.type === 'needs-you.entered' && event.seatId === seatId), 'the question');
    expect(entered).toMatchObject({ why: 'question', certain: true });
    // The record's own time, not the census's (later only if a snapshot fell between the line and the census).
    expect(Date.parse(entered.at) - askedAt).toBeGreaterThanOrEqual(0);
    expect(Date.parse(entered.at) - askedAt).toBeLessThan(1000);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const answeredAt = Date.now();
    appendFileSync(journal, `${userLine(context(answeredAt), [toolResult('toolu_q1', 'Yes.')])}\n`);
    const left = await until(async () => (await listed('needs-you')).find((event) => event.type === 'needs-you.left' && event.seatId === seatId), 'the answer');
    expect(left.type === 'needs-you.left' && left.waitedMs).toBeGreaterThanOrEqual(1400);
    expect(left.type === 'needs-you.left' && left.waitedMs).toBeLessThan(3500);

    // --seat keeps only that seat's transitions, oldest first.
    const seatOnly = await cli(['history', '--since', '30m', '--seat', seatId, '--json']);
    const events = (JSON.parse(seatOnly.stdout) as HistoryList).events;
    expect(events.every((event) => event.seatId === seatId)).toBe(true);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['seat.opened', 'job.started', 'job.ended', 'needs-you.entered', 'needs-you.left']));
    expect(events.map((event) => event.at)).toEqual([...events.map((event) => event.at)].sort());

    // The digest (the panel's content) names Quill as having waited on the question.
    const digest = await cli(['history', '--digest', '--since', '10m', '--json']);
    expect(digest.code).toBe(0);
    const entries = (JSON.parse(digest.stdout) as HistoryDigest).entries;
    expect(entries.find((entry) => entry.kind === 'waited' && entry.seatId === seatId)).toMatchObject({ name: 'Quill', why: 'question' });
    expect(entries.find((entry) => entry.kind === 'job-ended' && entry.seatId === seatId)).toMatchObject({ outcome: 'completed' });
    const text = await cli(['history', '--digest', '--since', '10m']);
    expect(text.stdout).toMatch(/^While you were away/);
    expect(text.stdout).toMatch(/Quill waited for you \(question\)/);

    // --until ends the window: before the question was asked, Quill had not waited; the window says where it ends.
    const before = new Date(askedAt - 1).toISOString();
    const earlier = await cli(['history', '--digest', '--since', '10m', '--until', before, '--json']);
    expect(earlier.code).toBe(0);
    const cut = JSON.parse(earlier.stdout) as HistoryDigest;
    expect(cut.until).toBe(before);
    expect(cut.entries.find((entry) => entry.kind === 'waited' && entry.seatId === seatId)).toBeUndefined();
    const seatBefore = (JSON.parse((await cli(['history', '--since', '30m', '--until', before, '--seat', seatId, '--json'])).stdout) as HistoryList).events;
    expect(seatBefore.map((event) => event.type)).not.toContain('needs-you.entered');
  }, 60_000);
});
