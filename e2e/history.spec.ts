/**
 * The time-lapse and the away digest in browser mode over the demo fleet: a role change, then the timeline scrubbed
 * back to before it shows the agent at its old station (and refuses a drag there), Live shows it at the new one; a
 * simulated absence shows "While you were away", whose entries centre the view on their agent.
 */
import { test, expect, type Page } from '@playwright/test';
import { roleKey } from '../shared/roles';
import { demoHostForEachTest, dragAgent, openWorld } from './world.page';

// Each test holds its own host on a fresh home, so the file's tests may run on different workers at once.
test.describe.configure({ mode: 'parallel' });

const running = demoHostForEachTest();

/** The station the world shows an agent at ('' the lobby; null when not drawn). */
function stationOf(page: Page, personaId: string): Promise<string | null> {
  return page.evaluate((id) => window.__pixelfleet!.seating().find((seat) => seat.id === id)?.station ?? null, personaId);
}

const historyOf = (page: Page) => page.evaluate(() => window.__pixelfleet!.history());

test('scrubbing the timeline to before a role change shows the agent at its old station, and Live shows now', async ({ page }) => {
  // Every moment the page asks of the host (the recent ones it answers itself, from the history it holds).
  const asked: number[] = [];
  page.on('websocket', (socket) => socket.on('framesent', (frame) => void (typeof frame.payload === 'string' && frame.payload.includes('"history.at"') && asked.push(Date.now()))));
  await openWorld(page, running.host);
  const agent = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.find((persona) => persona.role === 'builder')?.id ?? null);
  expect(agent, 'the demo has a builder').not.toBeNull();
  const id = agent!;
  await expect.poll(() => stationOf(page, id)).toBe('builder');

  const changedAt = await page.evaluate(() => Date.now());
  await dragAgent(page, id, 'tester');
  await expect.poll(() => page.evaluate((persona) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === persona)?.role, id)).toBe('tester');

  // H shows the bar over the retained span, which reaches back before the change.
  await page.locator('#world > canvas:not(.backdrop)').focus();
  await page.keyboard.press('h');
  const bar = page.locator('[data-timeline]');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('data-mode', 'live');
  await expect.poll(async () => (await historyOf(page)).span?.from ?? null).not.toBeNull();
  const span = (await historyOf(page)).span!;
  const from = Date.parse(span.from!);
  const to = Date.parse(span.to);
  expect(from).toBeLessThan(changedAt);

  // Press on the track two minutes before the change, or halfway there when the span began since (one pixel is a
  // few seconds of an hour's span).
  const track = (await page.locator('[data-timeline-track]').boundingBox())!;
  const target = Math.max(changedAt - 120_000, (from + changedAt) / 2);
  // The page holds the recent history (the last hour, or the newest rows of it) by the time the bar is read: the press
  // is answered in the page, without asking the host.
  await expect.poll(async () => (await historyOf(page)).held).not.toBeNull();
  const held = (await historyOf(page)).held!;
  expect(Date.parse(held.from)).toBeLessThan(target);
  expect(Date.parse(held.until)).toBeGreaterThanOrEqual(changedAt);
  await page.mouse.click(track.x + ((target - from) / (to - from)) * track.width, track.y + track.height / 2);

  await expect(bar).toHaveAttribute('data-mode', 'past');
  await expect.poll(() => historyOf(page).then((history) => history.at)).not.toBeNull();
  const shown = Date.parse((await historyOf(page)).at!);
  expect(Math.abs(shown - target)).toBeLessThan(60_000);
  expect(shown).toBeLessThan(changedAt);
  expect(asked, 'a moment inside the held history is not asked of the host').toEqual([]);
  await expect.poll(() => stationOf(page, id)).toBe('builder');
  await expect(page.locator('[data-past-banner]')).toBeVisible();
  await expect(page.locator('[data-past-banner]')).toContainText('PAST ·');
  expect(await page.evaluate(() => document.body.dataset.historyMode)).toBe('past');
  await page.screenshot({ path: test.info().outputPath('past.png') });
  // The live fleet still holds the change underneath.
  expect(await page.evaluate((persona) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === persona)?.role, id)).toBe('tester');

  // No gesture writes in the past: dragging the agent to another station is refused and changes nothing.
  await dragAgent(page, id, 'reviewer');
  await expect(page.locator('[data-message]').filter({ hasText: 'shows the past' })).toBeVisible();
  expect(await page.evaluate((persona) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === persona)?.role, id)).toBe('tester');
  expect(await stationOf(page, id)).toBe('builder');

  // Escape returns to now.
  await page.locator('#world > canvas:not(.backdrop)').focus();
  await page.keyboard.press('Escape');
  await expect(bar).toHaveAttribute('data-mode', 'live');
  await expect(page.locator('[data-past-banner]')).toBeHidden();
  await expect.poll(() => stationOf(page, id)).toBe(roleKey('tester'));

  // Play runs the past forward at 600×: ten seconds of the past a wall second at least; it ends at now, back live.
  await page.mouse.click(track.x + 2, track.y + track.height / 2);
  await expect(bar).toHaveAttribute('data-mode', 'past');
  const start = Date.parse((await historyOf(page)).handle!);
  await page.locator('[data-timeline-play="600"]').click();
  await expect(page.locator('[data-timeline-play="600"]')).toHaveAttribute('aria-pressed', 'true');
  const played = await page.evaluate(() => Date.now());
  if (to - start > 5 * 60_000) {
    await expect.poll(async () => Date.parse((await historyOf(page)).handle ?? '0')).toBeGreaterThan(start + 120_000);
    await page.locator('[data-timeline] [data-timeline-live]').click();
  }
  await expect.poll(() => historyOf(page).then((history) => [history.mode, history.playing]), { timeout: 20_000 }).toEqual(['live', null]);
  expect(await page.evaluate(() => Date.now())).toBeGreaterThan(played);
  await expect.poll(() => stationOf(page, id)).toBe(roleKey('tester'));
});

test('after a simulated absence, "While you were away" lists what happened; an entry centres its agent and closes the panel; Escape dismisses it', async ({ page }) => {
  await openWorld(page, running.host);
  await expect(page.locator('[data-panel="away"]')).toBeHidden();
  await page.evaluate(() => window.__pixelfleet!.simulateAway(45));
  const panel = page.locator('[data-panel="away"]');
  await expect(panel).toBeVisible();
  const entries = panel.locator('[data-away-entry]');
  await page.screenshot({ path: test.info().outputPath('away.png') });
  expect(await entries.count()).toBeGreaterThan(0);
  const listed = (await historyOf(page)).away!;
  expect(listed.length).toBe(await entries.count());
  // Still waiting first, then waits that ended, then the rest by kind.
  const order = ['waiting', 'waited', 'turn-done', 'job-ended', 'launch', 'error'];
  const ranks = listed.map((entry) => order.indexOf(entry.kind));
  expect(ranks.every((rank) => rank >= 0)).toBe(true);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

  // An entry whose agent is in the world centres the view on it.
  const personas = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.map((persona) => persona.id));
  const index = listed.findIndex((entry) => personas.includes(entry.personaId));
  expect(index, 'an entry names an agent of the fleet').toBeGreaterThanOrEqual(0);
  const pick = listed[index].personaId;
  await page.locator('#world > canvas:not(.backdrop)').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await panel.locator(`[data-away-entry="${pick}"]`).first().click();
  await expect.poll(() => page.evaluate(() => window.__pixelfleet!.state().ui.focused)).toBe(pick);
  // The panel steps aside: it would cover the agent it centred.
  await expect(panel).toBeHidden();
  const point = (await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), pick))!;
  expect(Math.abs(point.x - 640)).toBeLessThan(40);
  expect(Math.abs(point.y - 400)).toBeLessThan(60);

  await page.evaluate(() => window.__pixelfleet!.simulateAway(45));
  await expect(panel).toBeVisible();
  await entries.first().focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  expect((await historyOf(page)).away).toBeNull();
});
