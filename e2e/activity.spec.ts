/**
 * Activity in the page as a real journal grows: the bubble and the needs-you queue follow turn-done → new prompt →
 * working → AskUserQuestion → question; a queue entry focuses its agent and opens the tray; the browser-mode
 * notification goes through the Web Notifications API (a stand-in class recording what it is asked to show).
 */
import { test, expect, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { askHost } from './world.page';

const SESSION = 'e2e-activity';
const line = (value: object) => `${JSON.stringify(value)}\n`;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const base = { sessionId: SESSION, isSidechain: false, cwd: '/home/owner/src/app' };

interface ActivityHook {
  bubbles(): Record<string, string | null>;
  poses(): Record<string, string>;
  state(): { fleet: { personas: { id: string; name: string }[] } | null; ui: { focused: string | null; tray: string | null } };
}

const hook = (page: Page) => page.evaluate(() => {
  const found = (window as unknown as { __pixelfleet?: ActivityHook }).__pixelfleet;
  return found ? { bubbles: found.bubbles(), ui: found.state().ui, personas: found.state().fleet?.personas ?? [] } : null;
});
const queueWhys = (page: Page) => page.locator('[data-queue-entry]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-why')));

test.describe('activity, the needs-you queue and notifications', () => {
  let home: string;
  let host: RunningHost;
  let journal: string;

  test.beforeAll(async () => {
    home = await freshHome();
    const folder = join(home, 'claude', 'projects', '-home-owner-src-app');
    await mkdir(folder, { recursive: true });
    journal = join(folder, `${SESSION}.jsonl`);
    await writeFile(
      journal,
      line({ ...base, type: 'user', timestamp: ago(300), message: { role: 'user', content: 'first task' } }) +
        line({ ...base, type: 'assistant', timestamp: ago(200), message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } }) +
        line({ ...base, type: 'system', subtype: 'turn_duration', timestamp: ago(200) }),
    );
    host = await startHost({ home });
    const opened = await askHost(host, 'seats.open', { candidateId: `claude:${SESSION}`, name: 'Ada' });
    expect(opened.ok, opened.error?.message).toBe(true);
  });

  test.afterAll(async () => {
    await host?.stop();
    await removeHome(home);
  });

  test('bubble and queue follow the journal; a queue entry focuses the agent and opens its tray; a question notifies', async ({ page }) => {
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
      // The owner is elsewhere: notifications are only shown while the page does not have the focus.
      document.hasFocus = () => false;
    });
    await page.goto(host.url);
    await expect.poll(async () => (await hook(page))?.personas.length ?? 0, { timeout: 30_000 }).toBe(1);
    const personaId = (await hook(page))!.personas[0].id;

    await expect.poll(async () => (await hook(page))?.bubbles[personaId]).toBe('turn-done');
    await expect.poll(() => queueWhys(page)).toEqual(['turn-done']);

    await appendFile(journal, line({ ...base, type: 'user', timestamp: ago(0), message: { role: 'user', content: 'next task' } }));
    await expect.poll(async () => (await hook(page))?.bubbles[personaId]).toBeNull();
    await expect(page.locator('[data-needs-you-queue]')).toBeHidden();
    await expect(page.locator(`[data-agent="${personaId}"]`)).toHaveAttribute('data-activity', 'working');

    await appendFile(journal, line({ ...base, type: 'assistant', timestamp: ago(0), message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: { questions: [{ question: 'Which one?' }] } }] } }));
    await expect.poll(async () => (await hook(page))?.bubbles[personaId]).toBe('question');
    await expect.poll(() => queueWhys(page)).toEqual(['question']);
    await expect(page.locator(`[data-agent="${personaId}"]`)).toHaveAttribute('data-why', 'question');
    const notes = () => page.evaluate(() => (window as unknown as { __notes: { title: string; body: string }[] }).__notes);
    await expect.poll(notes).toHaveLength(1);
    expect((await notes())[0]).toMatchObject({ title: 'Ada' });
    expect((await notes())[0].body).toContain('has a question');
    expect((await notes())[0].body).not.toContain('Which one');
    await page.screenshot({ path: test.info().outputPath('question.png') });
    // The queue entry carries the character's portrait, drawn from its look.
    await expect(page.locator(`[data-queue-entry="${personaId}"] [data-queue-portrait]`)).toHaveAttribute('src', /^data:image\/png;base64,/);

    // Focusing the character (keyboard, through the accessible mirror) shows its card: who, where, what and since.
    const mirrored = page.locator(`[data-mirror] [data-agent="${personaId}"]`);
    const card = page.locator('[data-hover-card]');
    await expect(mirrored).toHaveAttribute('aria-describedby', 'agent-hover-card');
    await mirrored.focus();
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('data-card-agent', personaId);
    await expect(card).toHaveAttribute('data-card-activity-state', 'needs-you');
    await expect(card.locator('[data-card-name]')).toHaveText('Ada');
    await expect(card.locator('[data-card-harness]')).toHaveText('Claude Code');
    await expect(card.locator('[data-card-folder]')).toHaveText('/home/owner/src/app');
    await expect(card.locator('[data-card-activity]')).toContainText('needs you: has a question (AskUserQuestion)');
    await expect(card.locator('[data-card-activity]')).toContainText(/for \d+ (s|min)/);
    await expect(card.locator('[data-card-subagents]')).toHaveText('no subagents running');
    await page.screenshot({ path: test.info().outputPath('card.png') });
    await mirrored.blur();
    await expect(card).toBeHidden();
    // Hovering the character shows the same card; leaving it hides it.
    const at = await page.evaluate((id) => (window as unknown as { __pixelfleet: { screenPosition(kind: 'agent', id: string): { x: number; y: number } | null } }).__pixelfleet.screenPosition('agent', id), personaId);
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await expect(card).toHaveAttribute('data-card-agent', personaId);
    await page.mouse.move(4, 796);
    await expect(card).toBeHidden();

    await page.locator(`[data-queue-entry="${personaId}"]`).click();
    await expect.poll(async () => (await hook(page))?.ui).toMatchObject({ focused: personaId, tray: personaId });
  });

  test('an idle agent (a turn finished over 30 minutes ago) rests instead of standing', async ({ page }) => {
    const idleSession = 'e2e-activity-idle';
    const folder = join(home, 'claude', 'projects', '-home-owner-src-app');
    await writeFile(
      join(folder, `${idleSession}.jsonl`),
      line({ ...base, sessionId: idleSession, type: 'user', timestamp: ago(3000), message: { role: 'user', content: 'old task' } }) +
        line({ ...base, sessionId: idleSession, type: 'assistant', timestamp: ago(2900), message: { id: 'm9', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } }) +
        line({ ...base, sessionId: idleSession, type: 'system', subtype: 'turn_duration', timestamp: ago(2900) }),
    );
    const opened = await askHost(host, 'seats.open', { candidateId: `claude:${idleSession}`, name: 'Grace' });
    expect(opened.ok, opened.error?.message).toBe(true);
    await page.goto(host.url);
    const poses = () => page.evaluate(() => {
      const found = (window as unknown as { __pixelfleet?: ActivityHook }).__pixelfleet;
      const personas = found?.state().fleet?.personas ?? [];
      const grace = personas.find((persona) => persona.name === 'Grace');
      return grace && found ? { pose: found.poses()[grace.id], bubble: found.bubbles()[grace.id] } : null;
    });
    await expect.poll(poses, { timeout: 30_000 }).toEqual({ pose: 'rest', bubble: 'idle' });
    await page.screenshot({ path: test.info().outputPath('idle.png') });
  });
});
