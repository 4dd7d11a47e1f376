/**
 * Issue 38, the queue, the digest and the board: the needs-you strip counts what it has no room for ("+N more") at
 * 1024×640 and 1920×1080 and, like the toolbar, covers no station sign; the away digest's totals are the totals of
 * `pixelfleet history --digest --json` over the same window (all entries, not the 200 listed); the jobs board in the
 * past view lists only jobs started by then and is not covered by the PAST banner, nor its Close by the strip, and
 * names no harness on two lines; the jobs board stays open 60 s over the demo without a page error.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from './host';
import { openWorld } from './world.page';
import { shot } from './shots';
import { labelsCovered, TOP_PANELS } from './covers';
import { textScale } from '../renderer/world/camera';
import { elapsedPhrase } from '../shared/activity';

/** Height in pixels of the pixel font's letters at scale 1 (a board's count is one line of them). */
const GLYPH_HEIGHT: number = JSON.parse(readFileSync(join(ROOT, 'assets', 'generated', 'sprites.json'), 'utf8')).meta.font.height;

interface Totals {
  waits: number;
  turns: number;
  jobs: number;
  launches: number;
  errors: number;
}

/** The parts of the page hook this spec reads. */
interface Hook {
  state(): { jobs: { jobs: { seatId: string; nativeId: string | null; startedAt: string; label: string }[] } | null; fleet: { personas: { id: string }[] } | null };
  actions: { seek(atMs: number): void; toggleTimeline(): void; toggleJobs(): void };
  history(): { mode: string; at: string | null; awayDigest: { since: string; until: string; totals: Totals; more: number } | null; away: unknown[] | null };
  simulateAway(minutes: number): Promise<void>;
}

/** The jobs board's harness and type cells whose text takes more than one line ("Claude Code" read as two things). */
function wrappedNames(page: Page): Promise<string[]> {
  return page.locator('[data-panel="jobs"] td.job-harness, [data-panel="jobs"] td.job-type').evaluateAll((cells) =>
    cells
      .filter((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
      })
      .map((cell) => cell.textContent ?? ''),
  );
}

function hook<T>(page: Page, read: (found: Hook) => T): Promise<T> {
  return page.evaluate(`(${read.toString()})(window.__pixelfleet)`) as Promise<T>;
}

let home: string;
let host: RunningHost;
test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home, args: ['--demo', '--agents', '60'] });
});
test.afterAll(async () => {
  await host?.stop();
  await removeHome(home);
});

test('at 1024×640 and 1920×1080 the needs-you strip shows what fits and counts the rest on "+N more", clear of the station signs; board counts stand at the signs\' scale', async ({ page }) => {
  const strip = page.locator('[data-needs-you-queue]');
  const entries = strip.locator('[data-queue-entry]');
  const more = strip.locator('[data-queue-more]');
  for (const size of [{ width: 1024, height: 640 }, { width: 1920, height: 1080 }]) {
    const where = `${size.width}×${size.height}`;
    await page.setViewportSize(size);
    await openWorld(page, host);
    await expect.poll(() => entries.count(), { timeout: 60_000 }).toBeGreaterThan(4);
    await expect(more).toBeVisible();
    await shot(page, `queue-${size.width}x${size.height}`);
    // What is shown and what is counted add up to every waiting agent, every shown entry whole inside the strip (read
    // in one go: the busy demo changes the queue between two reads).
    const { total, built, shown, counted, text, inside } = await strip.evaluate((root) => {
      const items = [...root.querySelectorAll('li')];
      const visible = items.filter((item) => !item.hidden);
      const box = root.getBoundingClientRect();
      return {
        total: Number((root as HTMLElement).dataset.queueTotal),
        built: items.length,
        shown: visible.length,
        counted: Number((root.querySelector('[data-queue-more]') as HTMLElement).dataset.hiddenCount),
        text: (root.querySelector('[data-queue-more]') as HTMLElement).textContent,
        inside: visible.every((item) => item.getBoundingClientRect().right <= box.right + 1),
      };
    });
    expect(shown, where).toBeGreaterThan(0);
    expect(shown + counted, where).toBe(total);
    // Only the oldest few have elements, however many wait: the rest are counted, not built (12 at first, 8 more
    // while every one built fits, and 8 kept past those so an entry moving across the line is not rebuilt).
    expect(built, where).toBeGreaterThanOrEqual(shown);
    expect(built, where).toBeLessThanOrEqual(Math.max(20, shown + 16));
    expect(text, where).toBe(`+${counted} more`);
    expect(inside, where).toBe(true);
    // The strip with its reply row, the toolbar and the host filter cover no sign, count or name: the floor is below them.
    expect(await labelsCovered(page, TOP_PANELS), where).toEqual([]);
    // A board's count is drawn at the names' scale (2 at least), in proportion to the signs: not twice their scale.
    const zoom = await page.evaluate(() => window.__pixelfleet!.view().zoom);
    const counts = (await page.evaluate(() => window.__pixelfleet!.labels())).filter((label) => label.kind === 'count');
    expect(counts.length, where).toBeGreaterThan(0);
    for (const count of counts) expect(count.height / GLYPH_HEIGHT, `${where}: count of ${count.id} is ${count.height} px tall`).toBeLessThanOrEqual(Math.max(2, textScale(zoom)));
  }
  // "+N more" shows them all.
  await more.click();
  // Every waiting agent has its entry now, shown.
  await expect.poll(() => strip.evaluate((root) => {
    const items = [...root.querySelectorAll('li')];
    return items.length === Number((root as HTMLElement).dataset.queueTotal) && items.every((item) => !item.hidden);
  })).toBe(true);
  // The entries that were hidden show their wait as of now, not as of when they were hidden (the strip refreshes only
  // the entries shown, and an entry brings its wait up to date as it shows again). The page applies the latest
  // snapshot at its next animation frame, so a read can land between the store taking a seat's new wait and the strip
  // showing it: such a read is taken again, while an entry that kept its old wait would fail every read.
  const staleWaits = async () => {
    const waits = await page.evaluate(() => {
      const fleet = (window as unknown as { __pixelfleet: { state(): { fleet: { seats: { personaId: string; activity: { since: string | null } }[] } } } }).__pixelfleet.state().fleet;
      const since = new Map(fleet.seats.map((seat) => [seat.personaId, seat.activity.since]));
      return { now: Date.now(), entries: [...document.querySelectorAll<HTMLElement>('[data-queue-entry]')].map((button) => ({ id: button.dataset.queueEntry!, since: since.get(button.dataset.queueEntry!) ?? null, shown: button.querySelector('.queue-since')!.textContent })) };
    });
    if (waits.entries.length < 2) return [`only ${waits.entries.length} entries`];
    // The page's second may have ticked on either side of the read.
    return waits.entries
      .filter((entry) => ![-1000, 0, 1000].some((offset) => elapsedPhrase(entry.since, waits.now + offset) === entry.shown))
      .map((entry) => `${entry.id} waits "${entry.shown}", since ${entry.since} at ${new Date(waits.now).toISOString()}`);
  };
  await expect.poll(staleWaits, { timeout: 3_000 }).toEqual([]);
  await shot(page, 'queue-1920x1080-all');
});

test('the away digest counts every entry, as `history --digest --json` does over the same window', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openWorld(page, host);
  await hook(page, (found) => found.simulateAway(50));
  const panel = page.locator('[data-panel="away"]');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  const digest = (await hook(page, (found) => found.history().awayDigest))!;
  const cli = JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'history', '--digest', '--since', digest.since, '--until', digest.until, '--json'], { cwd: ROOT, env: { ...process.env, PIXELFLEET_HOME: home }, encoding: 'utf8' }),
  ) as { entries: unknown[]; more: number; totals: Totals };
  const listed = (await hook(page, (found) => found.history().away))!.length;
  // The same window: the CLI stops where the page's digest stopped. A transition written a moment after its time may
  // reach only the CLI: they agree but for that.
  for (const kind of ['waits', 'turns', 'jobs', 'launches', 'errors'] as const) {
    expect(Math.abs(cli.totals[kind] - digest.totals[kind]), `${kind}: page ${digest.totals[kind]}, CLI ${cli.totals[kind]}`).toBeLessThanOrEqual(Math.max(3, Math.ceil(digest.totals[kind] * 0.05)));
  }
  expect(Math.abs(cli.more - digest.more)).toBeLessThanOrEqual(Math.max(5, Math.ceil(digest.more * 0.05)));
  // Both count far past what is listed (the heading once counted only the 200 entries listed).
  const cliTotal = cli.totals.waits + cli.totals.jobs + cli.totals.launches + cli.totals.errors + cli.totals.turns;
  expect(cliTotal).toBeGreaterThanOrEqual(cli.entries.length);
  // The heading counts every entry, not only those listed.
  const heading = (await panel.locator('[data-away-summary]').textContent())!;
  expect(heading).toContain(`${digest.totals.waits.toLocaleString('en-US')} wait`);
  if (digest.more > 0) {
    const total = digest.totals.waits + digest.totals.jobs + digest.totals.launches + digest.totals.errors;
    expect(total + digest.totals.turns).toBeGreaterThan(listed);
    await expect(panel.locator('[data-away-more]')).toHaveText(`and ${digest.more.toLocaleString('en-US')} more: open the timeline`);
  }
  // Grouped per agent: one group per agent, each agent once.
  const groups = await panel.locator('[data-away-agent]').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.awayAgent));
  expect(new Set(groups).size).toBe(groups.length);
  await shot(page, 'away-1920x1080');
  await page.setViewportSize({ width: 1024, height: 640 });
  await shot(page, 'away-1024x640');
  // An entry shows its agent and closes the panel.
  await panel.locator('[data-away-entry]').first().click();
  await expect(panel).toBeHidden();
});

test('in the past view the jobs board lists only the jobs started by then, clear of the PAST banner', async ({ page }) => {
  for (const size of [{ width: 1024, height: 640 }, { width: 1920, height: 1080 }]) {
    await page.setViewportSize(size);
    await openWorld(page, host);
    await expect.poll(() => hook(page, (found) => found.state().jobs?.jobs.length ?? 0), { timeout: 60_000 }).toBeGreaterThan(3);
    // A moment between the board's first and last start.
    const starts = (await hook(page, (found) => found.state().jobs!.jobs.map((job) => Date.parse(job.startedAt)))).sort((a, b) => a - b);
    const moment = starts[Math.floor(starts.length / 2)];
    await hook(page, (found) => found.actions.toggleTimeline());
    await page.evaluate(`window.__pixelfleet.actions.seek(${moment})`);
    await expect.poll(() => hook(page, (found) => found.history().mode), { timeout: 20_000 }).toBe('past');
    await hook(page, (found) => found.actions.toggleJobs());
    const board = page.locator('[data-panel="jobs"]');
    await expect(board).toBeVisible();
    await expect(board.locator('[data-jobs-past]')).toBeVisible();
    const at = await expect.poll(() => hook(page, (found) => found.history().at)).not.toBeNull().then(() => hook(page, (found) => Date.parse(found.history().at!)));
    // Every row started by the moment shown; none from after it. The rows and the live board are read in one go: the
    // board is drawn from each new board at once, and the demo's next one may drop a job or give it its id.
    const { keys, jobs } = await hook(page, (found) => ({
      keys: [...document.querySelectorAll<HTMLElement>('[data-panel="jobs"] tr[data-job-key]')].map((row) => row.dataset.jobKey!),
      jobs: found.state().jobs!.jobs.map((job) => ({ key: job.nativeId === null ? `${job.seatId}|~${job.startedAt}|${job.label}` : `${job.seatId}|${job.nativeId}`, started: Date.parse(job.startedAt) })),
    }));
    const startedBy = new Map(jobs.map((job) => [job.key, job.started]));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(startedBy.get(key)!, `${key} started by the moment shown`).toBeLessThanOrEqual(at);
    expect(jobs.some((job) => job.started > at), 'the live board has jobs started after the moment').toBe(true);
    // The PAST banner does not cover the board.
    const overlap = await page.evaluate(() => {
      const banner = document.querySelector('.past-banner')!.getBoundingClientRect();
      const panel = document.querySelector('[data-panel="jobs"]')!.getBoundingClientRect();
      return Math.max(0, Math.min(banner.bottom, panel.bottom) - Math.max(banner.top, panel.top)) * Math.max(0, Math.min(banner.right, panel.right) - Math.max(banner.left, panel.left));
    });
    expect(overlap, 'the PAST banner covers no part of the jobs board').toBe(0);
    // The banner leads the timeline bar, below the floor: it covers no sign or name, nor do the top panels in the past.
    expect(await labelsCovered(page, ['[data-past-banner]', ...TOP_PANELS]), `${size.width}×${size.height} in the past`).toEqual([]);
    expect(await wrappedNames(page), `${size.width}×${size.height}: harness and type names on one line`).toEqual([]);
    // The board opens below the strip and its reply row: nothing lies over its Close.
    await board.locator('header [data-close]').click({ trial: true });
    await shot(page, `past-jobs-${size.width}x${size.height}`);
    await hook(page, (found) => found.actions.toggleJobs());
    await page.reload();
  }
});

test('the jobs board stays open 60 s over the demo without a page error', async ({ page }) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openWorld(page, host);
  await page.locator('#world > canvas:not(.backdrop)').focus();
  await page.keyboard.press('j');
  const board = page.locator('[data-panel="jobs"]');
  await expect(board).toBeVisible();
  const started = Date.now();
  let rowsSeen = 0;
  while (Date.now() - started < 60_000) {
    rowsSeen = Math.max(rowsSeen, await board.locator('tr[data-job-key]').count());
    await page.waitForTimeout(2000);
  }
  expect(rowsSeen).toBeGreaterThan(0);
  await shot(page, 'jobs-1920x1080');
  expect(errors, 'no page error while the board was open').toEqual([]);
  // Opened with J, closed with Escape.
  await page.keyboard.press('Escape');
  await expect(board).toBeHidden();
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.keyboard.press('j');
  await expect(board).toBeVisible();
  await shot(page, 'jobs-1024x640');
});
