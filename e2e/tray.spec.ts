/**
 * Trays and replays read while the demo fleet is busy: the open card survives fleet updates untouched, new lines of
 * a running child arrive at the bottom, any character opens its card, and Escape or a click on the floor closes it.
 */
import { test, expect, type Page } from '@playwright/test';
import { demoHostForEachTest, openWorld } from './world.page';

// Each test holds its own host on a fresh home, so the file's tests may run on different workers at once.
test.describe.configure({ mode: 'parallel' });

const demo = demoHostForEachTest();

const cursor = (page: Page) => page.evaluate(() => (window.__pixelfleet!.state() as unknown as { fleet: { cursor: number } }).fleet.cursor);

/** A seat's persona and entry matching a test, from the page's state. */
function findEntry(page: Page, want: 'running-replayable' | 'idle-with-finished') {
  return page.evaluate((kind) => {
    for (const seat of window.__pixelfleet!.state().fleet!.seats) {
      const summary = seat.subagents;
      if (!summary) continue;
      if (kind === 'running-replayable') {
        // Background helpers run longest, so their replays are long and still growing.
        const entries = summary.recent as { nativeId: string | null; replayable: boolean; state: string; background?: boolean }[];
        const entry = entries.find((candidate) => candidate.replayable && candidate.nativeId && candidate.state === 'running' && candidate.background);
        if (entry) return { personaId: seat.personaId, nativeId: entry.nativeId! };
      } else if (summary.running === 0 && summary.recent.some((candidate) => candidate.state === 'ended')) {
        return { personaId: seat.personaId, nativeId: null };
      }
    }
    return null;
  }, want);
}

test('an open replay survives five fleet updates: scroll within a line, focus and expansion unchanged; new lines arrive at the bottom', async ({ page }) => {
  test.setTimeout(240_000);
  await openWorld(page, demo.host);
  const tray = page.locator('[data-panel="tray"]');
  const log = tray.locator('[data-replay-log]');
  // Unfold every tool line and long text so the replay is taller than its pane; true once it scrolls.
  const unfoldAndMeasure = () =>
    log.evaluate((node) => {
      node.querySelectorAll<HTMLButtonElement>('[data-line-toggle][aria-expanded="false"], [data-line-more][aria-expanded="false"]').forEach((button) => button.click());
      return node.scrollHeight > node.clientHeight + 40;
    });
  // Demo helpers are random: some stop after a few lines. Open running ones until a replay is long enough to read from the middle.
  const deadline = Date.now() + 150_000;
  let long = false;
  while (!long && Date.now() < deadline) {
    let found: Awaited<ReturnType<typeof findEntry>> = null;
    await expect.poll(async () => (found = await findEntry(page, 'running-replayable')), { timeout: 60_000 }).not.toBeNull();
    const target = found!;
    await page.locator(`[data-agent="${target.personaId}"]`).focus();
    await page.keyboard.press('Enter');
    await expect(tray).toBeVisible();
    await tray.locator(`[data-replay="${target.nativeId}"]`).click();
    await expect(log.locator('[data-line-role]').first()).toBeVisible();
    // Opens at the newest line.
    await expect.poll(() => log.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight)).toBeLessThan(8);
    const until = Date.now() + 30_000;
    while (Date.now() < until && !(long = await unfoldAndMeasure())) {
      const running = await page.evaluate(() => (window.__pixelfleet!.state() as unknown as { replay: { running: boolean } | null }).replay?.running ?? false);
      if (!running) break;
      await page.waitForTimeout(1000);
    }
    if (!long) await page.keyboard.press('Escape');
  }
  expect(long, 'a running demo helper wrote a replay longer than its pane').toBe(true);
  const before = await log.evaluate((node) => {
    node.scrollTop = Math.round((node.scrollHeight - node.clientHeight) / 2);
    const title = node.closest('li')!.querySelector<HTMLButtonElement>('[data-replay]')!;
    title.focus();
    const probe = window as unknown as { __probe: { log: Element; focused: Element | null; rows: Element[] } };
    probe.__probe = { log: node, focused: document.activeElement, rows: [...node.querySelectorAll('[data-line-key]')] };
    const lineHeight = parseFloat(getComputedStyle(node).lineHeight) || 16;
    return { scrollTop: node.scrollTop, lineHeight, expandedTools: node.querySelectorAll('[data-line-toggle][aria-expanded="true"]').length };
  });
  expect(before.scrollTop).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('replay-middle.png') });

  const start = await cursor(page);
  await expect.poll(() => cursor(page), { timeout: 40_000 }).toBeGreaterThanOrEqual(start + 5);
  const after = await log.evaluate((node) => {
    const probe = (window as unknown as { __probe: { log: Element; focused: Element | null; rows: Element[] } }).__probe;
    return {
      scrollTop: node.scrollTop,
      sameLog: probe.log === node,
      sameFocus: probe.focused === document.activeElement,
      rowsKept: probe.rows.every((row) => row.isConnected),
      expandedTools: node.querySelectorAll('[data-line-toggle][aria-expanded="true"]').length,
      expanded: node.closest('li')!.querySelector('[data-replay]')!.getAttribute('aria-expanded'),
    };
  });
  expect(Math.abs(after.scrollTop - before.scrollTop)).toBeLessThanOrEqual(before.lineHeight);
  expect(after).toMatchObject({ sameLog: true, sameFocus: true, rowsKept: true, expanded: 'true' });
  expect(after.expandedTools).toBeGreaterThanOrEqual(before.expandedTools);

});

test('new lines of a running child: followed at the bottom; scrolled up, a "new entries ↓" marker instead, which returns to the bottom', async ({ page }) => {
  test.setTimeout(300_000);
  await openWorld(page, demo.host);
  const tray = page.locator('[data-panel="tray"]');
  const log = tray.locator('[data-replay-log]');
  const marker = tray.locator('[data-new-entries]');
  const keys = () => log.evaluate((node) => [...node.querySelectorAll('[data-line-key]')].map((row) => Number(row.getAttribute('data-line-key'))));
  const fromBottom = () => log.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight);
  const running = () => page.evaluate(() => (window.__pixelfleet!.state() as unknown as { replay: { running: boolean } | null }).replay?.running ?? false);
  const newest = async () => Math.max(-1, ...(await keys()));
  /** Waits up to 30 s for a line newer than `from` (older pages loading above do not count); false when the child ended or stayed quiet. */
  const grows = async (from: number) => {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if ((await newest()) > from) return true;
      if (!(await running())) return false;
      await page.waitForTimeout(500);
    }
    return false;
  };
  const deadline = Date.now() + 220_000;
  let followed = false;
  let marked = false;
  while (!(followed && marked) && Date.now() < deadline) {
    let found: Awaited<ReturnType<typeof findEntry>> = null;
    await expect.poll(async () => (found = await findEntry(page, 'running-replayable')), { timeout: 60_000 }).not.toBeNull();
    const target = found!;
    await page.locator(`[data-agent="${target.personaId}"]`).focus();
    await page.keyboard.press('Enter');
    await tray.locator(`[data-replay="${target.nativeId}"]`).click();
    await expect(log.locator('[data-line-role]').first()).toBeVisible();
    if (!followed && (await grows(await newest()))) {
      followed = true;
      // New keys only at the end, in order; and the log stayed at the bottom, with no marker.
      const now = await keys();
      expect(now).toEqual([...now].sort((a, b) => a - b));
      await expect.poll(fromBottom).toBeLessThan(8);
      await expect(marker).toBeHidden();
    }
    if (followed && !marked) {
      // Unfold every line so the log is taller than its pane, then read from its middle.
      const scrollable = await log.evaluate((node) => {
        node.querySelectorAll<HTMLButtonElement>('[data-line-toggle][aria-expanded="false"], [data-line-more][aria-expanded="false"]').forEach((button) => button.click());
        return node.scrollHeight > node.clientHeight + 40;
      });
      if (scrollable) {
        await log.evaluate((node) => {
          node.scrollTop = Math.round((node.scrollHeight - node.clientHeight) / 2);
        });
        if (await grows(await newest())) {
          marked = true;
          await expect(marker).toBeVisible();
          await expect(marker).toHaveText('new entries ↓');
          // Not followed: the reader stays where they were reading.
          expect(await fromBottom()).toBeGreaterThan(8);
          await page.screenshot({ path: test.info().outputPath('new-entries-marker.png') });
          await marker.click();
          await expect.poll(fromBottom).toBeLessThan(8);
          await expect(marker).toBeHidden();
        }
      }
    }
    if (!(followed && marked)) await page.keyboard.press('Escape');
  }
  expect(followed, 'a running demo helper wrote a new line while its replay was open at the bottom').toBe(true);
  expect(marked, 'a running demo helper wrote a new line while its replay was scrolled up').toBe(true);
});

test('a click on a character with no running subagents opens its card with its finished subagents; Escape and the floor close it', async ({ page }) => {
  await openWorld(page, demo.host);
  let found: Awaited<ReturnType<typeof findEntry>> = null;
  await expect.poll(async () => (found = await findEntry(page, 'idle-with-finished')), { timeout: 30_000 }).not.toBeNull();
  const target = found!;
  const feet = (await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), target.personaId))!;
  await page.mouse.click(feet.x, feet.y);
  const tray = page.locator('[data-panel="tray"]');
  await expect(tray).toBeVisible();
  await expect(tray).toHaveAttribute('data-tray-for', target.personaId);
  await expect.poll(() => tray.locator('li[data-subagent][data-state="ended"]').count()).toBeGreaterThan(0);
  const name = await page.evaluate((id) => window.__pixelfleet!.state().fleet!.personas.find((persona) => persona.id === id)!.name, target.personaId);
  await expect(tray.locator('[data-card-name]')).toHaveText(name);
  await expect(tray.locator('[data-card-folder]')).toHaveText(/^(~|\/)/);

  // Beside the agent, never over it.
  const zoom = (await page.evaluate(() => window.__pixelfleet!.view())).zoom;
  const agentNow = (await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), target.personaId))!;
  const box = (await tray.boundingBox())!;
  const agent = { x: agentNow.x - 8 * zoom, y: agentNow.y - 20 * zoom, width: 16 * zoom, height: 32 * zoom };
  const overlap = box.x < agent.x + agent.width && agent.x < box.x + box.width && box.y < agent.y + agent.height && agent.y < box.y + box.height;
  expect(overlap).toBe(false);
  await page.screenshot({ path: test.info().outputPath('card.png') });

  // Escape closes it with the focus anywhere on the page.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(tray).toBeHidden();

  // Reopen, then a click on empty floor closes it.
  await page.mouse.click(agentNow.x, agentNow.y);
  await expect(tray).toBeVisible();
  const view = await page.evaluate(() => window.__pixelfleet!.view());
  await page.mouse.click(view.offsetX + 3 * view.zoom, view.offsetY + 3 * view.zoom);
  await expect(tray).toBeHidden();
});
