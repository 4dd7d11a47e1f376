/**
 * Budget and pace in the page (issue 41): clicking the HUD's usage line opens the pace panel with a Codex window as a
 * recorded gauge (used share, reset countdown), the active Claude block as an estimate with cost, burn rate and
 * projection, and cost by role; a Claude seat whose context crosses 90 % gets the warning mark and one notification
 * ("context 92 % — near auto-compact"); a usage-limit message shows "limited until HH:MM". State is read through the
 * page hooks and data attributes, never from pixels; screenshots are kept as artifacts.
 */
import { test, expect, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PaceHook } from '../renderer/panels/pacePanel';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { askHost, openWorld } from './world.page';

const SESSION = 'e2e-pace-claude';
const CODEX_ID = '019af041-0000-7000-8000-00000000e2e4';
const line = (value: object) => `${JSON.stringify(value)}\n`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const base = { sessionId: SESSION, isSidechain: false, cwd: '/home/owner/src/app' };
/** An assistant message whose context (input + cache) is `context` tokens of the model's 200,000. */
const assistant = (id: string, at: string, context: number) =>
  line({ ...base, type: 'assistant', timestamp: at, requestId: `req_${id}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 1000, output_tokens: 500, cache_read_input_tokens: context - 1000, cache_creation_input_tokens: 0 } } });

const pace = <T,>(page: Page, read: (hook: PaceHook) => T | Promise<T>) => page.evaluate(`(${read.toString()})(window.__pixelfleetPace)`) as Promise<Awaited<T>>;

test.describe('the pace panel and budget warnings', () => {
  let home: string;
  let host: RunningHost;
  let journal: string;

  test.beforeAll(async () => {
    home = await freshHome();
    const folder = join(home, 'claude', 'projects', '-home-owner-src-app');
    await mkdir(folder, { recursive: true });
    journal = join(folder, `${SESSION}.jsonl`);
    await writeFile(journal, line({ ...base, type: 'user', timestamp: ago(40), message: { role: 'user', content: 'task' } }) + assistant('msg_1', ago(30), 60_000) + assistant('msg_2', ago(10), 100_000));
    const now = new Date();
    const day = join(home, 'codex', 'sessions', String(now.getFullYear()), String(now.getMonth() + 1).padStart(2, '0'), String(now.getDate()).padStart(2, '0'));
    await mkdir(day, { recursive: true });
    const stamp = ago(20);
    const seconds = (minutes: number) => Math.floor(Date.now() / 1000) + minutes * 60;
    await writeFile(
      join(day, `rollout-${stamp.slice(0, 19).replace(/:/g, '-')}-${CODEX_ID}.jsonl`),
      line({ timestamp: stamp, type: 'session_meta', payload: { id: CODEX_ID, timestamp: stamp, cwd: '/home/owner/src/api', originator: 'codex_cli_rs', cli_version: '0.60.0', source: 'cli' } }) +
        line({ timestamp: stamp, type: 'turn_context', payload: { cwd: '/home/owner/src/api', model: 'gpt-5.1-codex' } }) +
        line({ timestamp: ago(5), type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 42, window_minutes: 300, resets_at: seconds(125) }, secondary: { used_percent: 12, window_minutes: 10080, resets_at: seconds(3 * 1440) } } } }),
    );
    host = await startHost({ home });
    for (const [candidateId, name, role] of [[`claude:${SESSION}`, 'Ada', 'builder'], [`codex:${CODEX_ID}`, 'Bo', 'reviewer']]) {
      const opened = await askHost(host, 'seats.open', { candidateId, name, role });
      expect(opened.ok, opened.error?.message).toBe(true);
    }
  });

  test.afterAll(async () => {
    await host?.stop();
    await removeHome(home);
  });

  test('the HUD line opens the pace panel; a context crossing 90 % gets the mark and one notification; a limit shows its end', async ({ page }) => {
    await page.addInitScript(() => {
      const shown: { title: string; body: string; tag: string }[] = [];
      class StandIn {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        onclick: ((event: Event) => void) | null = null;
        constructor(title: string, options: { body: string; tag: string }) {
          shown.push({ title, body: options.body, tag: options.tag });
        }
      }
      Object.assign(window, { Notification: StandIn, __notes: shown });
      document.hasFocus = () => false;
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openWorld(page, host);
    const hud = page.locator('[data-usage-hud]');
    await expect(hud).toBeVisible();
    const panel = page.locator('[data-pace-panel]');
    await expect(panel).toBeHidden();
    await hud.click();
    await expect(panel).toBeVisible();
    await expect(hud).toHaveAttribute('aria-expanded', 'true');

    // The Codex 5 h window as recorded, with its countdown; the active Claude block as an estimate.
    const primary = panel.locator('[data-pace-gauge="codex|primary"]');
    await expect.poll(async () => (await pace(page, async (hook) => (await hook.open(), hook.shown().gauges.map((gauge) => gauge.key)))), { timeout: 30_000 }).toContain('codex|primary');
    await expect(primary).toHaveAttribute('data-kind', 'recorded');
    await expect(primary).toHaveAttribute('data-percent', '42');
    await expect(primary).toContainText(/42 % · resets in 2 h \d+ min · recorded/);
    await expect(panel.locator('[data-pace-gauge="codex|secondary"]')).toContainText('Codex 7 d window');
    const block = panel.locator('[data-pace-gauge="claude|block"]');
    await expect(block).toHaveAttribute('data-kind', 'estimate');
    await expect(block).toContainText(/ends in \d+ h \d+ min · estimate/);
    await expect(panel.locator('[data-pace-block]')).toContainText('burn');
    await expect(panel.locator('[data-pace-block]')).toContainText('~$');
    // Cost by role: the history samples each seat's usage; both roles have a bar today.
    await expect.poll(async () => pace(page, async (hook) => (await hook.open(), hook.shown().today.map((bar) => bar.key).sort())), { timeout: 30_000 }).toEqual(['builder', 'reviewer']);
    await expect(panel.locator('[data-pace-roles="week"] [data-pace-role="builder"]')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('pace-panel.png') });
    await page.keyboard.press('Escape');
    await panel.locator('[data-pace-close]').click();
    await expect(panel).toBeHidden();

    // The context crosses 90 %: the mark, and exactly one notification.
    const ada = page.locator('[data-mirror] [data-agent]', { hasText: 'Ada' });
    await expect(ada).toHaveAttribute('data-context-warn', 'false');
    await appendFile(journal, assistant('msg_3', ago(0), 184_000));
    await expect(ada).toHaveAttribute('data-context-warn', 'true', { timeout: 30_000 });
    const notes = () => page.evaluate(() => (window as unknown as { __notes: { title: string; body: string; tag: string }[] }).__notes);
    await expect.poll(notes, { timeout: 30_000 }).toContainEqual({ title: 'Ada', body: 'context 92 % — near auto-compact', tag: expect.stringMatching(/^budget:/) });
    await appendFile(journal, assistant('msg_4', ago(0), 186_000));
    await expect.poll(async () => (await askHost(host, 'usage.read', {})).value as { seats: { context: { used: number } | null }[] }).toMatchObject({ seats: expect.arrayContaining([expect.objectContaining({ context: expect.objectContaining({ used: 186_000 }) })]) });
    expect((await notes()).filter((note) => note.body.startsWith('context'))).toHaveLength(1);
    await page.screenshot({ path: test.info().outputPath('near-compact.png') });

    // Claude Code says the usage limit was reached: the card says until when, and so does the pace panel.
    const resetAt = Math.floor(Date.now() / 1000) + 90 * 60;
    await appendFile(journal, line({ ...base, type: 'assistant', timestamp: ago(0), isApiErrorMessage: true, message: { id: 'msg_limit', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: `Claude AI usage limit reached|${resetAt}` }], usage: { input_tokens: 0, output_tokens: 0 } } }));
    const reset = new Date(resetAt * 1000);
    const until = `limited until ${String(reset.getHours()).padStart(2, '0')}:${String(reset.getMinutes()).padStart(2, '0')}`;
    await expect.poll(async () => pace(page, async (hook) => (await hook.open(), hook.shown().gauges.find((gauge) => gauge.key === 'claude|limited')?.countdown ?? null)), { timeout: 30_000 }).toBe(until);
    await pace(page, (hook) => hook.close());
    await ada.focus();
    await expect(page.locator('[data-hover-card] [data-card-limit]')).toHaveText(until);
  });
});
