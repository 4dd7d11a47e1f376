/**
 * Acting from the world (issue 39) in browser mode: a stand-in Claude Code in a private tmux server asks a question in
 * Claude Code's journal format and reads its answer from its terminal. The needs-you entry's reply box sends the answer;
 * the entry says "sent" until the stand-in's journal records the exact text, then leaves the queue. The card's
 * Interrupt (behind a confirmation) presses Escape; the terminal panel shows the live pane and types only after "Type".
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { installQuestionStandin } from '../main/dev/testing/terminalStandin';
import { freshHome, removeHome, ROOT, startHost, type RunningHost, tmuxPath } from './host';
import { openWorld } from './world.page';

const tmux = tmuxPath();
if (!tmux) console.log('e2e/terminal.spec.ts: skipped — tmux is not on PATH (apt-get install tmux).');

test.describe('acting on an agent’s terminal from the world', () => {
  test.skip(!tmux, 'tmux is not on PATH (apt-get install tmux)');
  const socket = `pf-e2e-term-${process.pid}-${Date.now().toString(36)}`;
  let home: string;
  let host: RunningHost;
  let personaId: string;
  let sessionId: string;
  let project: string;
  let claudeHome: string;

  const keysReceived = () => {
    const file = join(claudeHome, 'standin-keys.jsonl');
    return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)).join('') : '';
  };
  const journal = () => readFileSync(join(claudeHome, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), 'utf8');

  test.beforeAll(async () => {
    home = await freshHome();
    const bin = join(home, 'bin');
    claudeHome = join(home, 'claude');
    await mkdir(bin, { recursive: true });
    await mkdir(claudeHome, { recursive: true });
    installQuestionStandin(bin);
    project = join(home, 'project');
    await mkdir(project);
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, PIXELFLEET_TMUX_SOCKET: socket, PIXELFLEET_HOME: home, CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data'), OPENCODE_DB: '' };
    const launched = JSON.parse(
      execFileSync(process.execPath, [join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', project, '--name', 'Ada', '--json'], { env, cwd: ROOT, encoding: 'utf8' }),
    );
    personaId = launched.persona.id;
    sessionId = launched.persona.seat.sessionId;
    // The stand-in holds its answer back from the journal until the test releases it, so "sent" can be seen first.
    writeFileSync(join(claudeHome, 'standin-hold'), '');
    host = await startHost({ home, env: { PATH: env.PATH, PIXELFLEET_TMUX_SOCKET: socket } });
  });

  test.afterAll(async () => {
    await host?.stop();
    try {
      execFileSync(tmux!, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Every session already ended.
    }
    if (home) await removeHome(home);
  });

  test('reply from the needs-you entry: "sent", then the journal records the exact text and the entry leaves', async ({ page }) => {
    await openWorld(page, host);
    const entry = page.locator(`[data-queue-entry="${personaId}"]`);
    await expect(entry).toHaveAttribute('data-why', 'question', { timeout: 30_000 });
    const box = page.locator(`[data-needs-you-queue] [data-reply-for="${personaId}"]`);
    await expect(box).toHaveAttribute('data-action', 'reply');
    const text = `Teal "quoted" 'single' $(touch pwned) é ✓`;
    await box.locator('[data-reply-input]').fill(text);
    await box.locator('[data-reply-input]').press('Enter');
    await expect(box.locator('[data-reply-status]')).toHaveAttribute('data-reply-status', 'sent');
    await expect(box.locator('[data-reply-status]')).toHaveText('sent');
    await expect(entry).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('reply-sent.png') });
    // Typed on the stand-in's terminal, not yet in its records: still waiting.
    await expect.poll(keysReceived).toContain(text);
    expect(journal()).not.toContain('Teal');
    writeFileSync(join(claudeHome, 'standin-release'), '');
    await expect.poll(() => journal().trim().split('\n').map((line) => JSON.parse(line)).at(-1)?.message?.content?.[0]?.content).toBe(text);
    await expect(entry).toHaveCount(0, { timeout: 30_000 });
    expect(existsSync(join(project, 'pwned'))).toBe(false);
  });

  test('the card interrupts behind a confirmation, and the terminal panel types only after "Type"', async ({ page }) => {
    await openWorld(page, host);
    await page.locator(`[data-agent="${personaId}"]`).evaluate((button: HTMLElement) => button.click());
    const row = page.locator('[data-panel="tray"] [data-act-row]');
    await expect(row.locator('[data-act="interrupt"]')).toBeVisible();
    const before = keysReceived();
    await row.locator('[data-act="interrupt"]').click();
    await expect(row.locator('[data-act-confirm]')).toBeVisible();
    await row.locator('[data-act-confirm-no]').click();
    await row.locator('[data-act="interrupt"]').click();
    await row.locator('[data-act-confirm-yes]').click();
    await expect.poll(keysReceived).toBe(`${before}\x1b`);

    await row.locator('[data-open-terminal]').click();
    const panel = page.locator('[data-panel="terminal"]');
    await expect(panel).toBeVisible();
    await expect(panel).toHaveAttribute('data-terminal-for', personaId);
    await expect(panel.locator('[data-terminal-state]')).toHaveAttribute('data-terminal-state', 'live');
    await expect(panel.locator('.xterm-rows')).toContainText('Which colour should the button be?');
    // Read-only: keys pressed in the panel reach nobody.
    await panel.locator('[data-terminal-screen]').click();
    await page.keyboard.type('zz');
    expect(keysReceived()).not.toContain('zz');
    // Live: what the pane writes reaches the panel through the stream.
    execFileSync(tmux!, ['-L', socket, 'send-keys', '-t', 'pf-ada', '-l', 'live-echo']);
    await expect(panel.locator('.xterm-rows')).toContainText('live-echo');
    await panel.locator('[data-terminal-type]').click();
    await expect(panel).toHaveAttribute('data-typing', '');
    await page.keyboard.type('ok');
    await expect.poll(keysReceived).toContain('ok');
    await page.screenshot({ path: test.info().outputPath('terminal-panel.png') });
    await panel.locator('[data-close]').click();
    await expect(panel).toBeHidden();
    // T on the focused agent opens it again.
    await page.locator('body').focus();
    await page.keyboard.press('t');
    await expect(panel).toBeVisible();
    await expect(panel).toHaveAttribute('data-terminal-for', personaId);
    await expect(panel.locator('[data-terminal-state]')).toHaveAttribute('data-terminal-state', 'live');
  });
});
