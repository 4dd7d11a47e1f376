/**
 * The jobs board over the busy demo: it lists the running subagents of every seat and their count equals the sum of
 * the badges (both read from the page's own state and DOM at one snapshot), a job opens its replay with its alias and
 * the files it touched, and main's test clock past ten minutes marks a background job as reminded.
 */
import { test, expect, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { askHost, openWorld } from './world.page';

let host: RunningHost;
let home: string;

/** Collects the `notify.show` events the host pushes to a connected client. */
async function listenForNotes(running: RunningHost) {
  const socket = new WebSocket(`ws://127.0.0.1:${running.port}/ws?token=${running.token}`, { headers: { origin: running.origin } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const received: { title: string; job?: { kind: string } }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.event === 'notify.show') received.push(message.payload);
  });
  return { received, close: () => socket.close() };
}

test.beforeEach(async () => {
  home = await freshHome();
  host = await startHost({ home, args: ['--demo'], env: { PIXELFLEET_TEST_CLOCK: '1' } });
});

test.afterEach(async () => {
  await host.stop();
  await removeHome(home);
});

/** The parts of a job the test reads. */
interface PageJob {
  alias: string | null;
  personaId: string;
  nativeId: string | null;
  seatId: string;
  kind: 'foreground' | 'background';
  state: 'running' | 'ended';
  replayable: boolean;
  reminder?: { count: number };
}

/** The page's state as the board test reads it (the hook returns the whole store). */
interface BoardState {
  fleet: { cursor: number; seats: { id: string; subagents?: { running: number; recent: { nativeId: string | null; state: string; startedAt: string; label: string }[] } }[] } | null;
  jobs: { cursor?: number; jobs: PageJob[]; unlisted: { seatId: string; running: number }[] } | null;
  replay: { owner: string; seatId: string; nativeId: string; status: string; lines: { entry: { targets?: { path: string }[] } }[] } | null;
}

const boardState = (page: Page) => page.evaluate(() => window.__pixelfleet!.state() as unknown);

/**
 * One snapshot, read in a single turn of the page: the board's jobs pinned to the fleet cursor they were derived from,
 * the badges (each seat's running count), and the rows the board's DOM shows. Null while the two cursors differ.
 */
function pinnedSnapshot(page: Page) {
  return page.evaluate(() => {
    const state = window.__pixelfleet!.state() as unknown as BoardState;
    if (!state.fleet || !state.jobs || state.jobs.cursor !== state.fleet.cursor) return null;
    const badges = state.fleet.seats.reduce((sum, seat) => sum + (seat.subagents?.running ?? 0), 0);
    const running = state.jobs.jobs.filter((job) => job.state === 'running');
    const unlisted = state.jobs.unlisted.reduce((sum, entry) => sum + entry.running, 0);
    // Every running entry each seat lists, as the board keys it.
    const keyOf = (seatId: string, entry: { nativeId: string | null; startedAt: string; label: string }) => (entry.nativeId === null ? `${seatId}|~${entry.startedAt}|${entry.label}` : `${seatId}|${entry.nativeId}`);
    const listed = [...new Set(state.fleet.seats.flatMap((seat) => (seat.subagents?.recent ?? []).filter((entry) => entry.state === 'running').map((entry) => keyOf(seat.id, entry))))];
    const seatsRunning = state.fleet.seats.filter((seat) => (seat.subagents?.running ?? 0) > 0).map((seat) => seat.id);
    const rows = [...document.querySelectorAll<HTMLElement>('[data-panel="jobs"] tr[data-job-key][data-job-state="running"]')].map((row) => row.dataset.jobKey!);
    const unlistedRows = [...document.querySelectorAll<HTMLElement>('[data-panel="jobs"] tr[data-jobs-unlisted]')].reduce((sum, row) => sum + Number(row.dataset.running), 0);
    const header = Object.fromEntries([...document.querySelectorAll<HTMLElement>('[data-jobs-running]')].map((span) => [span.dataset.jobsRunning, Number(span.textContent!.split(' ').pop())]));
    return { cursor: state.fleet.cursor, badges, running: running.length + unlisted, listed, rows, unlistedRows, seatsRunning, boardSeats: [...new Set([...running.map((job) => job.seatId), ...state.jobs.unlisted.map((entry) => entry.seatId)])], header };
  });
}

test('the board lists every seat\'s running subagents, as many as the badges say; a job opens its replay; ten minutes on, a background job is reminded', async ({ page }) => {
  test.setTimeout(180_000);
  await openWorld(page, host);
  await page.keyboard.press('j');
  const board = page.locator('[data-panel="jobs"]');
  await expect(board).toBeVisible();
  await expect(page.locator('[data-jobs-button]')).toHaveAttribute('aria-pressed', 'true');

  // Pin to one snapshot where the demo has subagents running (the demo's fleet moves on its own clock).
  let snapshot: Awaited<ReturnType<typeof pinnedSnapshot>> = null;
  await expect
    .poll(async () => {
      snapshot = await pinnedSnapshot(page);
      return snapshot !== null && snapshot.running > 0;
    }, { timeout: 60_000 })
    .toBe(true);
  const pinned = snapshot!;
  expect(pinned.running, `board running count equals the sum of the badges at cursor ${pinned.cursor}`).toBe(pinned.badges);
  expect(new Set(pinned.rows), 'one running row per running subagent each seat lists').toEqual(new Set(pinned.listed));
  expect(pinned.rows.length + pinned.unlistedRows).toBe(pinned.badges);
  expect(new Set(pinned.boardSeats)).toEqual(new Set(pinned.seatsRunning));
  expect(Object.values(pinned.header as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(pinned.badges);

  // Filters: running only leaves no ended row; back to all brings them back.
  await board.locator('[data-jobs-filter="state"]').selectOption('running');
  await expect(board.locator('tr[data-job-key][data-job-state="ended"]')).toHaveCount(0);
  await expect.poll(() => board.locator('tr[data-job-key]').count()).toBeGreaterThan(0);
  // The demo's Codex seats run subagents too: the harness filter leaves only theirs.
  await board.locator('[data-jobs-filter="harness"]').selectOption('codex');
  await expect.poll(() => board.locator('tr[data-job-key]').evaluateAll((rows) => [...new Set(rows.map((row) => (row as HTMLElement).dataset.jobKey!.split(':')[0]))])).toEqual(['codex']);
  await board.locator('[data-jobs-filter="harness"]').selectOption('');
  await board.locator('[data-jobs-filter="state"]').selectOption('');

  // Longest-running first: the running rows' start times never increase.
  const starts = await page.evaluate(() => {
    const state = window.__pixelfleet!.state() as unknown as { jobs: { jobs: { state: string; startedAt: string; seatId: string; nativeId: string | null }[] } };
    const byKey = new Map(state.jobs.jobs.map((job) => [`${job.seatId}|${job.nativeId}`, job.startedAt]));
    return [...document.querySelectorAll<HTMLElement>('[data-panel="jobs"] tr[data-job-key][data-job-state="running"]')].map((row) => byKey.get(row.dataset.jobKey!) ?? null);
  });
  const times = starts.filter((value): value is string => value !== null).map((value) => Date.parse(value));
  expect(times).toEqual([...times].sort((left, right) => left - right));

  // Keyboard: the first row is the tab stop; the arrows move along the rows; Enter expands the focused one.
  let target: PageJob | null = null;
  await expect
    .poll(async () => {
      const state = (await boardState(page)) as BoardState;
      target = state.jobs?.jobs.find((job) => job.state === 'running' && job.replayable && job.alias !== null) ?? null;
      return target !== null;
    }, { timeout: 60_000 })
    .toBe(true);
  const job = target!;
  const key = `${job.seatId}|${job.nativeId}`;
  const row = board.locator(`tr[data-job-key="${key}"]`);
  await expect(row).toHaveAttribute('data-job-alias', job.alias!);
  await row.focus();
  await page.keyboard.press('Enter');
  const detail = board.locator(`tr[data-job-detail="${key}"]`);
  await expect(detail.locator('[data-replay-pane]')).toBeVisible();
  await expect(detail.locator('[data-replay-alias]')).toHaveText(job.alias!);
  await expect(row).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(async () => {
    const state = (await boardState(page)) as BoardState;
    return state.replay && [state.replay.owner, state.replay.seatId, state.replay.nativeId, state.replay.status];
  }).toEqual(['board', job.seatId, job.nativeId, 'ok']);
  await expect(detail.locator('[data-line-role]').first()).toBeVisible();
  // The files touched are the replay's own tool targets: the most recent distinct paths, at most eight.
  await expect
    .poll(() =>
      page.evaluate((detailKey) => {
        const state = window.__pixelfleet!.state() as unknown as BoardState;
        const paths: string[] = [];
        for (const line of [...(state.replay?.lines ?? [])].reverse()) for (const target of [...(line.entry.targets ?? [])].reverse()) if (!paths.includes(target.path)) paths.push(target.path);
        const shown = [...document.querySelectorAll<HTMLElement>(`[data-job-detail="${CSS.escape(detailKey)}"] [data-file-path]`)].map((item) => item.dataset.filePath);
        return JSON.stringify(shown) === JSON.stringify(paths.slice(0, 8));
      }, key),
    )
    .toBe(true);
  await page.screenshot({ path: test.info().outputPath('jobs-drill-in.png') });
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect.poll(async () => ((await boardState(page)) as BoardState).replay).toBeNull();
  await expect(row).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const rowCount = await board.locator('tr[data-job-key]').count();
  if (rowCount > 1) await expect(row).not.toBeFocused();

  // The row links to its parent agent: focused and centred in the world, its tray open with the job's alias.
  await row.locator('[data-job-parent]').click();
  await expect.poll(async () => ((await boardState(page)) as { ui: { focused: string | null; tray: string | null } }).ui).toMatchObject({ focused: job.personaId, tray: job.personaId });
  const agent = await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), job.personaId);
  const viewport = page.viewportSize()!;
  expect(Math.abs(agent!.x - viewport.width / 2), 'centred horizontally').toBeLessThan(viewport.width / 4);
  await expect(board).toBeHidden();
  const trayEntry = page.locator(`[data-panel="tray"] [data-subagent="${job.nativeId}"]`);
  await expect(trayEntry.locator('[data-alias]')).toHaveText(job.alias!);
  // The toolbar button brings the board back.
  await page.locator('[data-jobs-button]').click();
  await expect(board).toBeVisible();

  // Main's test clock jumps past ten minutes while a background job runs: its row gets the reminder mark.
  await expect
    .poll(async () => ((await boardState(page)) as BoardState).jobs?.jobs.some((entry) => entry.kind === 'background' && entry.state === 'running') ?? false, { timeout: 90_000 })
    .toBe(true);
  // Listen as a second page would: the reminder comes through the one notification event, as a job variant.
  const notes = await listenForNotes(host);
  const advanced = await askHost(host, 'test.advanceClock', { ms: 11 * 60_000 });
  expect(advanced.ok, advanced.error?.message).toBe(true);
  await expect.poll(() => notes.received.filter((note) => note.job?.kind === 'job-reminder').length).toBeGreaterThan(0);
  notes.close();
  const reminded = board.locator('tr[data-job-reminded]');
  await expect(reminded.first()).toBeVisible();
  await expect(reminded.first().locator('[data-job-reminder]')).toBeVisible();
  const kinds = await reminded.evaluateAll((rows) => rows.map((entry) => entry.getAttribute('data-job-kind')));
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds), 'only background jobs remind').toEqual(new Set(['background']));
  await page.screenshot({ path: test.info().outputPath('jobs-board.png') });
});
