/**
 * No record can stop the world (issue 36): one hostile seat per harness opened beside a healthy one in a running
 * host, and the healthy seat's next change still reaches a real page. The OpenCode seat is the issue's own case — its
 * last assistant message reads `cache.read` 10^15 — and opens with exit 0, its usage the valid messages' figures.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { MINIMAL_SCHEMA } from '../main/dev/testing/opencodeStore';
import type { FleetSnapshot, Seat } from '../shared/schemas';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from './host';

let host: RunningHost | undefined;
let home: string;

test.afterEach(async () => {
  await host?.stop();
  await removeHome(home);
});

const HEALTHY = 'a3600000-0000-4000-8000-000000000001';
const CLAUDE_BAD = 'a3600000-0000-4000-8000-000000000002';
const CODEX_BAD = '019d3600-0000-7000-8000-000000000003';
const OPENCODE_BAD = 'ses_hostile36OpenCode';
const CWD = '/work/hostile';
const now = () => new Date().toISOString();

function claudeLine(sessionId: string, uuid: string, content: unknown[], usage?: Record<string, number>): string {
  const message = { id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: null, ...(usage ? { usage } : {}) };
  return `${JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: CWD, sessionId, version: '2.1.114', type: 'assistant', uuid, timestamp: now(), requestId: `req_${uuid}`, message })}\n`;
}

async function writeHarnessHomes(): Promise<{ healthyJournal: string; db: string }> {
  const projects = join(home, 'claude', 'projects', CWD.replace(/[^A-Za-z0-9]/g, '-'));
  await mkdir(projects, { recursive: true });
  const healthyJournal = join(projects, `${HEALTHY}.jsonl`);
  await writeFile(healthyJournal, claudeLine(HEALTHY, 'h-1', [{ type: 'text', text: 'Ready.' }], { input_tokens: 10, output_tokens: 2 }));
  // Claude: each figure valid, the context sum past the contract's bound.
  await writeFile(join(projects, `${CLAUDE_BAD}.jsonl`), claudeLine(CLAUDE_BAD, 'c-1', [{ type: 'text', text: 'ok' }], { input_tokens: 6e11, output_tokens: 1, cache_read_input_tokens: 6e11 }));
  // Codex: a token count past the bound, and a FIFO named like a rollout beside it.
  const sessions = join(home, 'codex', 'sessions', '2026', '06', '01');
  await mkdir(sessions, { recursive: true });
  const figures = { input_tokens: 2e12, cached_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0, total_tokens: 2e12 + 5 };
  await writeFile(join(sessions, `rollout-2026-06-01T09-00-00-${CODEX_BAD}.jsonl`), [
    { timestamp: now(), type: 'session_meta', payload: { id: CODEX_BAD, timestamp: now(), cwd: CWD, originator: 'codex_cli_rs', cli_version: '0.120.0', source: 'cli' } },
    { timestamp: now(), type: 'turn_context', payload: { turn_id: 't', cwd: CWD, model: 'gpt-5.1-codex', summary: 'auto' } },
    { timestamp: now(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: figures, last_token_usage: figures, model_context_window: 272_000 }, rate_limits: null } },
  ].map((line) => `${JSON.stringify(line)}\n`).join(''));
  await new Promise<void>((done) => execFile('mkfifo', [join(sessions, 'rollout-2026-06-01T09-00-05-019d3600-0000-7000-8000-00000000fifo.jsonl')], () => done()));
  // OpenCode: a valid assistant message, then the issue's last message with cache.read 10^15.
  const db = join(home, 'opencode', 'opencode.db');
  await mkdir(join(home, 'opencode'), { recursive: true });
  const { default: Database } = await import('better-sqlite3');
  const store = new Database(db);
  store.exec(MINIMAL_SCHEMA);
  const t = Date.now() - 60_000;
  store.prepare('INSERT INTO session (id, parent_id, directory, time_created, time_updated) VALUES (?, NULL, ?, ?, ?)').run(OPENCODE_BAD, CWD, t, t);
  const message = store.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
  const assistant = (at: number, read: number) => JSON.stringify({ role: 'assistant', modelID: 'claude-sonnet-4-5', time: { created: at, completed: at }, tokens: { input: 100, output: 20, reasoning: 0, cache: { read, write: 0 } }, cost: 0.01 });
  message.run('msg_0001', OPENCODE_BAD, t + 1, t + 1, assistant(t + 1, 1_000));
  message.run('msg_0002', OPENCODE_BAD, t + 2, t + 2, assistant(t + 2, 1e15));
  store.close();
  return { healthyJournal, db };
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

function pageFleet(page: Page): Promise<FleetSnapshot | null> {
  // The page's test hook appears once its script ran: until then there is no fleet yet.
  return page.evaluate(() => (window as unknown as { __pixelfleet?: { state(): { fleet: FleetSnapshot | null } } }).__pixelfleet?.state().fleet ?? null);
}

const seatOf = (fleet: FleetSnapshot | null, id: string): Seat | undefined => fleet?.seats.find((seat) => seat.id === id);

test('one hostile seat per harness beside a healthy one: the healthy seat’s next change reaches the page', async ({ page }) => {
  home = await freshHome('pixelfleet-e2e-hostile-');
  const { healthyJournal, db } = await writeHarnessHomes();
  const env = { PIXELFLEET_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data'), OPENCODE_DB: db };
  host = await startHost({ home, env: { OPENCODE_DB: db } });
  for (const id of [`claude:${HEALTHY}`, `claude:${CLAUDE_BAD}`, `codex:${CODEX_BAD}`, `opencode:${OPENCODE_BAD}`]) {
    const opened = await cli(['seats', 'open', id], env);
    expect(opened.code, opened.output).toBe(0);
  }
  await page.goto(host.url);
  await expect.poll(async () => (await pageFleet(page))?.seats.length ?? 0, { timeout: 30_000 }).toBe(4);
  const fleet = await pageFleet(page);
  // The issue's OpenCode case: usage from the valid message, the absurd one skipped and counted.
  const openCode = seatOf(fleet, `opencode:${OPENCODE_BAD}`)!;
  expect(openCode.usage).toMatchObject({ totals: { input: 100, cacheRead: 1_000 }, context: { used: 1_100 }, skipped: 1 });
  expect(seatOf(fleet, `claude:${CLAUDE_BAD}`)?.usage?.context ?? null).toBeNull();
  expect(seatOf(fleet, `codex:${CODEX_BAD}`)?.usage?.skipped).toBe(1);
  expect(seatOf(fleet, `claude:${HEALTHY}`)?.subagents?.running).toBe(0);
  // The healthy seat starts a subagent: the page must see it while the hostile seats stay open.
  const started = Date.now();
  await appendFile(healthyJournal, claudeLine(HEALTHY, 'h-2', [{ type: 'tool_use', id: 'toolu_h2', name: 'Agent', input: { description: 'Check the logs', prompt: 'Please check.', subagent_type: 'Explore' } }]));
  await expect.poll(async () => seatOf(await pageFleet(page), `claude:${HEALTHY}`)?.subagents?.running ?? 0, { timeout: 15_000, intervals: [50] }).toBe(1);
  test.info().annotations.push({ type: 'healthy change reached the page after (ms)', description: String(Date.now() - started) });
  expect(host.output()).not.toContain('not sent');
});
