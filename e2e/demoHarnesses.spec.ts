/**
 * The first-run demo shows native subagents of every harness: a Codex agent's tray and an OpenCode agent's tray open
 * from the world, and one entry of each replays its child's transcript (a child rollout, a child session).
 */
import { test, expect, type Page } from '@playwright/test';
import { demoHostForEachTest, openWorld } from './world.page';

// Each test holds its own host on a fresh home, so the file's tests may run on different workers at once.
test.describe.configure({ mode: 'parallel' });

const demo = demoHostForEachTest();

/** A seat of `harness` with a replayable subagent entry, from the page's state. */
function replayableOf(page: Page, harness: 'codex' | 'opencode') {
  return page.evaluate((wanted) => {
    const seats = window.__pixelfleet!.state().fleet!.seats as unknown as { harness: string; personaId: string; subagents?: { recent: { nativeId: string | null; replayable: boolean }[] } }[];
    for (const seat of seats) {
      if (seat.harness !== wanted || !seat.subagents) continue;
      const entry = seat.subagents.recent.find((candidate) => candidate.replayable && candidate.nativeId);
      if (entry) return { personaId: seat.personaId, nativeId: entry.nativeId! };
    }
    return null;
  }, harness);
}

/** The running subagents the jobs board header counts per harness. */
function headerCounts(page: Page) {
  return page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll<HTMLElement>('[data-jobs-running]')].map((span) => [span.dataset.jobsRunning, Number(span.textContent!.split(' ').pop())])),
  );
}

test('a Codex agent and an OpenCode agent each open their tray and replay a subagent', async ({ page }) => {
  test.setTimeout(150_000);
  await openWorld(page, demo.host);
  const tray = page.locator('[data-panel="tray"]');
  const log = tray.locator('[data-replay-log]');
  for (const harness of ['codex', 'opencode'] as const) {
    let found: Awaited<ReturnType<typeof replayableOf>> = null;
    await expect.poll(async () => (found = await replayableOf(page, harness)), { timeout: 60_000, message: `a ${harness} seat with a replayable subagent` }).not.toBeNull();
    const target = found!;
    await page.locator(`[data-agent="${target.personaId}"]`).focus();
    await page.keyboard.press('Enter');
    await expect(tray).toBeVisible();
    const entry = tray.locator(`[data-replay="${target.nativeId}"]`);
    await expect(entry).toBeVisible();
    await entry.click();
    await expect(log.locator('[data-line-role]').first()).toBeVisible();
    expect(await log.locator('[data-line-role]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath(`${harness}-replay.png`) });
    await page.keyboard.press('Escape');
    await expect(tray).toBeHidden();
  }
});

test('the jobs board counts running subagents of all three harnesses in the default demo', async ({ page }) => {
  test.setTimeout(150_000);
  await openWorld(page, demo.host);
  await page.keyboard.press('j');
  await expect(page.locator('[data-panel="jobs"]')).toBeVisible();
  await expect
    .poll(async () => {
      const counts = await headerCounts(page);
      return ['claude', 'codex', 'opencode'].every((harness) => (counts[harness] ?? 0) > 0);
    }, { timeout: 110_000, message: 'running: claude N codex N opencode N, all above zero' })
    .toBe(true);
});
