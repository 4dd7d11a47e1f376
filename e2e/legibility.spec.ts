/**
 * Issue 38, legibility: pixel text is drawn at whole scales on whole pixels at every zoom and pan. Over the 24-agent
 * demo at 1024×640 (world at 1.5×) and 1920×1080 (3×): after odd pans and at zoom 0.75 every name plate, sign, count,
 * badge and bubble sits on whole canvas pixels at a whole scale, each name plate and sign shows its whole text, and a
 * plate's pixels are the same wherever the pan puts it (a plate between two pixels loses strokes: "PIXEL" read
 * "PIXCL"). The keyboard list docks as one line over no label and closes with Esc; the card never covers the tray.
 * Screenshots go to the test's output and, when PIXELFLEET_SHOTS names a folder, there too.
 */
import { expect, test, type Page } from '@playwright/test';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { openWorld } from './world.page';
import { shot } from './shots';
import { labelsCovered } from './covers';

const SIZES = [
  { width: 1024, height: 640 },
  { width: 1920, height: 1080 },
];
const TEXT_KINDS = new Set(['sign', 'count', 'name', 'host', 'badge', 'bubble']);

interface Label {
  kind: string;
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
  scale?: number;
}

/** The parts of the page hook this spec reads (the hook's full shape is renderer/main.ts's PageHook). */
interface LegibilityHook {
  labels(): Label[];
  bubbles(): Record<string, string | null>;
  view(): { zoom: number; offsetX: number; offsetY: number };
  state(): { fleet: { personas: { id: string; name: string }[]; stations: { role: string }[] } | null };
}

async function labels(page: Page): Promise<Label[]> {
  return page.evaluate(() => (window as unknown as { __pixelfleet: LegibilityHook }).__pixelfleet.labels());
}

/** Every text label on whole pixels at a whole scale; plates show whole names (or a cut with "…"), signs whole roles. */
async function expectCrisp(page: Page, where: string, names: Map<string, string>, expectedSigns: Map<string, string> | null): Promise<Label[]> {
  const found = (await labels(page)).filter((label) => TEXT_KINDS.has(label.kind));
  // Below zoom 1 names hide (they come back on hover and focus); signs and counts stay.
  if (!expectedSigns) expect(found.filter((label) => label.kind === 'name').length, `${where}: name plates drawn`).toBeGreaterThan(0);
  for (const label of found) {
    const what = `${where}: ${label.kind} of ${label.id} at ${label.x},${label.y} ×${label.scale}`;
    expect(Number.isInteger(label.x) && Number.isInteger(label.y), `${what} is on whole pixels`).toBe(true);
    expect(Number.isInteger(label.scale) && label.scale! >= 1, `${what} is at a whole scale`).toBe(true);
    if (label.kind === 'name') {
      const name = names.get(label.id)!;
      const shown = label.text ?? '';
      expect(shown === name || (shown.endsWith('…') && name.startsWith(shown.slice(0, -1))), `${what} shows "${shown}" for "${name}"`).toBe(true);
    }
  }
  if (expectedSigns) {
    const signs = Object.fromEntries(found.filter((label) => label.kind === 'sign').map((label) => [label.id, label.text]));
    expect(signs, `${where}: every sign shows its whole role`).toEqual(Object.fromEntries(expectedSigns));
  }
  return found;
}

/** The inside of a plate (its cut corners show the floor behind): the pixels the name is drawn in. */
async function plateInside(page: Page, label: Label): Promise<Buffer> {
  return page.screenshot({ clip: { x: label.x + label.scale!, y: label.y + label.scale!, width: label.width - 2 * label.scale!, height: label.height - 2 * label.scale! } });
}

async function drag(page: Page, from: { x: number; y: number }, by: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + by.x / 2, from.y + by.y / 2, { steps: 3 });
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 3 });
  await page.mouse.up();
}

let home: string;
let host: RunningHost;
test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home, args: ['--demo', '--agents', '24'] });
});
test.afterAll(async () => {
  await host?.stop();
  await removeHome(home);
});

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} name plates and signs stay whole and crisp after odd pans and at zoom 0.75`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await openWorld(page, host);
    await expect.poll(async () => (await labels(page)).filter((label) => label.kind === 'name').length, { timeout: 30_000 }).toBeGreaterThan(10);
    // Agents stand still so a plate's pixels can be compared from one pan to the next.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const fleet = await page.evaluate(() => {
      const state = (window as unknown as { __pixelfleet: LegibilityHook }).__pixelfleet.state();
      return { personas: state.fleet!.personas.map(({ id, name }) => ({ id, name })), roles: state.fleet!.stations.map((station) => station.role) };
    });
    const names = new Map<string, string>(fleet.personas.map((persona) => [persona.id, persona.name]));
    const roles = new Map<string, string>(fleet.roles.map((role) => [role.toLowerCase(), role]));
    roles.set('', 'unassigned');
    const tag = `${size.width}x${size.height}`;
    await shot(page, `legibility-${tag}-fitted`);
    const fitted = await expectCrisp(page, `${tag} fitted`, names, null);

    // Odd pans: 7 right and 3 down, then 13 left and 5 up.
    const centre = { x: Math.round(size.width / 2), y: Math.round(size.height * 0.6) };
    const plates = fitted.filter((label) => label.kind === 'name').slice(0, 4);
    const before = await Promise.all(plates.map((plate) => plateInside(page, plate)));
    for (const by of [{ x: 7, y: 3 }, { x: -13, y: -5 }]) {
      await drag(page, centre, by);
      const view = await page.evaluate(() => window.__pixelfleet!.view());
      const moved = await expectCrisp(page, `${tag} panned to ${view.offsetX},${view.offsetY}`, names, null);
      for (const [index, plate] of plates.entries()) {
        const now = moved.find((label) => label.kind === 'name' && label.id === plate.id)!;
        expect(now.text).toBe(plate.text);
        // The same pixels wherever the plate lands: no stroke lost between two screen pixels.
        expect((await plateInside(page, now)).equals(before[index]), `${tag}: the plate of ${names.get(plate.id)} has the same pixels after the pan`).toBe(true);
      }
    }
    await shot(page, `legibility-${tag}-panned`);

    // Zoom out to 0.75 (one step at a time), pan by an odd amount: signs still whole, on whole pixels.
    await page.locator('#world > canvas:not(.backdrop)').focus();
    for (let step = 0; step < 8 && (await page.evaluate(() => window.__pixelfleet!.view().zoom)) > 0.75; step += 1) await page.keyboard.press('-');
    expect((await page.evaluate(() => window.__pixelfleet!.view())).zoom).toBe(0.75);
    await drag(page, centre, { x: 5, y: 7 });
    await expectCrisp(page, `${tag} at zoom 0.75`, names, roles);
    await shot(page, `legibility-${tag}-zoom075`);
  });
}

test('the "…" bubble is three dots, drawn at a whole scale at 1024×640', async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await openWorld(page, host);
  const bubblesOf = () => page.evaluate(() => (window as unknown as { __pixelfleet: LegibilityHook }).__pixelfleet.bubbles());
  await expect.poll(async () => Object.values(await bubblesOf()).includes('turn-done'), { timeout: 60_000 }).toBe(true);
  const bubbles = await bubblesOf();
  const id = Object.entries(bubbles).find(([, kind]) => kind === 'turn-done')![0];
  const bubble = (await labels(page)).find((label) => label.kind === 'bubble' && label.id === id)!;
  expect(Number.isInteger(bubble.scale)).toBe(true);
  // Three 2×2 dots with a gap between: the bubble is wide enough for them (a two-dot "…" read as a blank blob).
  expect(bubble.width / bubble.scale!).toBeGreaterThanOrEqual(12);
  await page.screenshot({ path: test.info().outputPath('bubble.png'), clip: { x: bubble.x - 20, y: bubble.y - 10, width: 60, height: 40 } });
});

test('the keyboard list docks as one line that hides no agent or sign; Enter opens the tray with no card over it; Esc leaves the list', async ({ page }) => {
  const mirror = page.locator('[data-mirror]');
  const tray = page.locator('[data-panel="tray"]');
  const card = page.locator('[data-hover-card]');
  for (const size of SIZES) {
    const where = `${size.width}×${size.height}`;
    await page.setViewportSize(size);
    await openWorld(page, host);
    await expect.poll(async () => (await labels(page)).filter((label) => label.kind === 'name').length, { timeout: 30_000 }).toBeGreaterThan(10);
    await page.mouse.move(size.width - 2, size.height - 2);
    const agent = mirror.locator('[data-agent]').nth(4);
    await agent.focus();
    // One line: the focused agent (and its station), nothing over the floor's agents, signs, names, badges or bubbles.
    const line = (await mirror.boundingBox())!;
    const button = (await agent.boundingBox())!;
    expect(line.height, `${where}: the list is one line`).toBeLessThan(button.height * 2);
    expect(button.y, `${where}: the focused agent is shown in it`).toBeGreaterThanOrEqual(line.y);
    expect(await labelsCovered(page, ['[data-mirror]'], ['sign', 'count', 'name', 'host', 'badge', 'bubble']), where).toEqual([]);
    await shot(page, `keyboard-list-${size.width}x${size.height}`);
    // Enter opens the tray; no card lies over it (the tray tells what the card would).
    await page.keyboard.press('Enter');
    await expect(tray).toBeVisible();
    await expect.poll(async () => {
      const [trayBox, cardBox] = [await tray.boundingBox(), (await card.isVisible()) ? await card.boundingBox() : null];
      return cardBox === null || !trayBox || cardBox.x >= trayBox.x + trayBox.width || cardBox.x + cardBox.width <= trayBox.x || cardBox.y >= trayBox.y + trayBox.height || cardBox.y + cardBox.height <= trayBox.y;
    }, { message: `${where}: no card over the tray` }).toBe(true);
    // Beside its agent, the tray leaves the agent's own name plate (wider than the character) readable.
    const id = await agent.getAttribute('data-agent');
    await expect.poll(async () => (await labelsCovered(page, ['[data-panel="tray"]'], ['name', 'host'])).filter((hit) => hit.endsWith(` ${id}`)), { message: `${where}: the tray covers its agent's plate` }).toEqual([]);
    await shot(page, `keyboard-enter-${size.width}x${size.height}`);
    await page.keyboard.press('Escape');
    await expect(tray).toBeHidden();
    // The tray closed, the focus is back on the agent's entry; Esc again leaves the list for the world's canvas.
    await expect(agent).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.locator('#world > canvas:not(.backdrop)')).toBeFocused();
    await expect.poll(() => mirror.evaluate((root) => root.contains(document.activeElement) || root.getBoundingClientRect().width > 1), { message: `${where}: the list closed` }).toBe(false);
  }
});
