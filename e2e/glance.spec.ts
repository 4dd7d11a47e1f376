/**
 * The world at a glance over the six-agent demo: every agent at its own desk with its harness's mark, all three
 * harnesses in the world and the legend, typing that visibly animates, the lobby's truthful one-line rows, and the
 * toast that confirms a drag.
 */
import { test, expect, type Page } from '@playwright/test';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { dragAgent, openWorld } from './world.page';

let host: RunningHost;
let home: string;

test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home, args: ['--demo'] });
});

test.afterAll(async () => {
  await host.stop();
  await removeHome(home);
});

const seating = (page: Page) => page.evaluate(() => window.__pixelfleet!.seating());

test('each agent sits at its own desk marked with its harness, and the demo has all three harnesses', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWorld(page, host);
  await expect.poll(async () => (await seating(page)).length, { timeout: 30_000 }).toBe(6);
  const seats = await seating(page);
  expect(new Set(seats.map((seat) => seat.harness))).toEqual(new Set(['claude', 'codex', 'opencode']));
  for (const seat of seats) {
    // The character stands behind the middle of its desk; the desk's top is above the feet.
    expect(Math.abs(seat.desk.x + seat.desk.width / 2 - seat.feet.x)).toBeLessThanOrEqual(1);
    expect(seat.desk.y).toBeLessThan(seat.feet.y);
    expect(seat.desk.y + seat.desk.height).toBeGreaterThan(seat.feet.y);
  }
  seats.forEach((seat, index) => {
    for (const other of seats.slice(index + 1)) {
      const apart = seat.desk.x + seat.desk.width <= other.desk.x || other.desk.x + other.desk.width <= seat.desk.x || seat.desk.y + seat.desk.height <= other.desk.y || other.desk.y + other.desk.height <= seat.desk.y;
      expect(apart, `desks of ${seat.id} and ${other.id}`).toBe(true);
    }
  });
  // The legend names each harness beside its mark.
  const legend = page.locator('[data-panel="legend"]');
  await expect(legend).toBeVisible();
  await expect(legend.locator('[data-legend]')).toHaveText(['Claude Code', 'Codex', 'OpenCode']);
  await expect(legend.locator('[data-harness-mark]')).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('desks.png') });
});

test('working agents type in at least four frames; the others rest or stand', async ({ page }) => {
  await openWorld(page, host);
  await expect.poll(async () => (await seating(page)).some((seat) => seat.state === 'working'), { timeout: 30_000 }).toBe(true);
  const frames = new Map<string, Set<string>>();
  // A new state shows from the next frame on: a pose may lag its state for a sample, not for three in a row.
  const lagging = new Map<string, number>();
  const expected: Record<string, string> = { working: 'work', idle: 'rest', 'needs-you': 'stand', unknown: 'stand' };
  for (let sample = 0; sample < 16; sample += 1) {
    for (const seat of await seating(page)) {
      if (seat.pose === 'work') frames.set(seat.id, (frames.get(seat.id) ?? new Set()).add(seat.frame));
      const lag = seat.pose === expected[seat.state] || seat.pose === 'walk' ? 0 : (lagging.get(seat.id) ?? 0) + 1;
      lagging.set(seat.id, lag);
      expect(lag, `${seat.id} is ${seat.state} but shows ${seat.pose}`).toBeLessThan(3);
    }
    await page.waitForTimeout(90);
  }
  const most = Math.max(0, ...[...frames.values()].map((seen) => seen.size));
  expect(most, 'distinct typing frames of one agent').toBeGreaterThanOrEqual(4);
});

test('the agent card shows the harness with its mark', async ({ page }) => {
  await openWorld(page, host);
  await expect.poll(async () => (await seating(page)).length, { timeout: 30_000 }).toBe(6);
  const codex = (await seating(page)).find((seat) => seat.harness === 'codex')!;
  await page.locator(`[data-agent="${codex.id}"]`).focus();
  await page.keyboard.press('Enter');
  const harness = page.locator('[data-panel="tray"] [data-card-harness]');
  await expect(harness).toHaveText('Codex');
  await expect(harness.locator('[data-harness-mark="codex"]')).toHaveCount(1);
});

test('the lobby lists real folders, dates and holders on one line each, newest first, and filters as the owner types', async ({ page }) => {
  await openWorld(page, host);
  await page.locator('[data-lobby-door]').click();
  const rows = page.locator('[data-panel="lobby"] [data-candidate]');
  await expect(rows).toHaveCount(6, { timeout: 20_000 });
  const folders = await rows.locator('[data-lobby-folder]').allTextContents();
  for (const folder of folders) expect(folder).toMatch(/^\/home\/demo\/src\/[a-z-]+$/);
  for (const when of await rows.locator('[data-lobby-when]').allTextContents()) expect(when).toMatch(/^(today|Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d\d:\d\d$|^\d{1,2} [A-Z][a-z]{2}( \d{4})?$/);
  const names = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.map((persona) => persona.name));
  const holders = (await rows.locator('[data-lobby-holder]').allTextContents()).map((text) => text.replace(/^● /, ''));
  expect(holders.sort()).toEqual([...names].sort());
  // One line each: every row is about as tall as one line of text.
  const heights = await rows.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().height));
  expect(Math.max(...heights)).toBeLessThan(2 * Math.min(...heights));
  expect(Math.max(...heights)).toBeLessThan(40);
  // Newest first (ties by id).
  const times = await page.evaluate(() => window.__pixelfleet!.state() as unknown as { candidates: { id: string; lastActivity: string }[] });
  const order = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-candidate')));
  const expected = [...times.candidates]
    .sort((first, second) => Date.parse(second.lastActivity) - Date.parse(first.lastActivity) || first.id.localeCompare(second.id))
    .map((candidate) => candidate.id);
  expect(order).toEqual(expected);
  // Typing goes to the filter.
  await expect(page.locator('[data-lobby-filter]')).toBeFocused();
  await page.keyboard.type('opencode');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-candidate', /^opencode:/);
  await page.screenshot({ path: test.info().outputPath('lobby.png') });
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-panel="lobby"]')).toBeHidden();
  await expect(page.locator('[data-lobby-door]')).toBeFocused();
});

test('a drag is confirmed by a toast that screen readers hear', async ({ page }) => {
  await openWorld(page, host);
  await expect.poll(async () => (await seating(page)).length, { timeout: 30_000 }).toBe(6);
  const agent = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.find((persona) => persona.role === 'builder')!);
  await dragAgent(page, agent.id, 'designer');
  const toast = page.locator('[data-panel="toast"]');
  await expect(toast).toHaveText(`${agent.name} is now a Designer`);
  await expect(toast).toHaveAttribute('aria-live', 'polite');
  await expect(toast).toBeHidden({ timeout: 6000 });
});

test('the picker marks the current role, keeps Tab inside, and closes with Escape', async ({ page }) => {
  await openWorld(page, host);
  const agent = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.find((persona) => persona.role === 'tester')!);
  await page.locator(`[data-agent="${agent.id}"]`).focus();
  await page.keyboard.press('r');
  const picker = page.locator('[data-panel="picker"]');
  await expect(picker.locator('[aria-current="true"]')).toHaveAttribute('data-role-option', 'tester');
  // The placeholder fits its field.
  const room = await picker.locator('[data-custom-role]').evaluate((input: HTMLInputElement) => {
    const context = document.createElement('canvas').getContext('2d')!;
    const style = getComputedStyle(input);
    context.font = style.font;
    const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: context.measureText(input.placeholder).width, inner };
  });
  expect(room.text).toBeLessThanOrEqual(room.inner);
  for (let step = 0; step < 30; step += 1) {
    await page.keyboard.press('Tab');
    expect(await picker.evaluate((root) => root.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
});
