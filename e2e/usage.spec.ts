/**
 * Tokens, context and cost over the demo (issue 26): every character shows a context bar whose level follows its seat's
 * fill (one past 80 %, one unknown), hovering a character shows its model, context, totals and cost, the HUD line sums
 * today and the open seats, and the jobs board has a tokens column. State is read through the page hook and the
 * mirror's data attributes, never from pixels; screenshots are kept as artifacts.
 */
import { test, expect, type Page } from '@playwright/test';
import type { FleetUsage, SubagentUsage, Usage } from '../shared/usage';
import { hudText } from '../renderer/panels/usageHud';
import { jobTokensText } from '../renderer/panels/jobRow';
import { contextGauge } from '../renderer/world/contextBar';
import { usageLines } from '../shared/usagePhrases';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { openWorld } from './world.page';

interface UsageHook {
  state(): {
    fleet: { personas: { id: string; name: string }[]; seats: { personaId: string; usage?: Usage }[]; usage?: FleetUsage } | null;
    jobs: { jobs: { alias: string | null; seatId: string; nativeId: string | null; usage?: SubagentUsage }[] } | null;
  };
  contextBars(): Record<string, { level: string; percent: number | null; fill: number | null }>;
  usageHud(): string | null;
  screenPosition(kind: 'agent', id: string): { x: number; y: number } | null;
  labels(): { kind: string; id: string; x: number; y: number; width: number; height: number }[];
  redrawDifference(): number;
  ticker(): { running: boolean; frames: number };
  view(): { draws: { full: number; partial: number } };
}

const hook = <T,>(page: Page, read: (found: UsageHook) => T): Promise<T> =>
  page.evaluate(`(${read.toString()})(window.__pixelfleet)`) as Promise<T>;

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

/** Opens the world and waits until the demo's seats report usage (the demo writes usage records for every harness). */
async function openWithUsage(page: Page): Promise<void> {
  await openWorld(page, host);
  await expect
    .poll(() => hook(page, (found) => (found.state().fleet?.seats ?? []).filter((seat) => seat.usage !== undefined).length), { timeout: 30_000, message: 'seats with usage in the demo' })
    .toBeGreaterThan(0);
}

/** Each agent's bar as drawn, as the mirror says it, and as its seat's usage says it should be. */
async function bars(page: Page) {
  // One read: the hook's contextBars() applies the latest snapshot first, so bars, mirror and state agree in it.
  const read = await page.evaluate(() => {
    const found = (window as unknown as { __pixelfleet: UsageHook }).__pixelfleet;
    const drawn = found.contextBars();
    const mirror = Object.fromEntries(
      [...document.querySelectorAll('[data-mirror] [data-agent]')].map((node) => [node.getAttribute('data-agent'), { level: node.getAttribute('data-context-level'), fill: node.getAttribute('data-context-fill') }]),
    );
    return { bars: drawn, mirror, seats: found.state().fleet?.seats ?? [], personas: found.state().fleet?.personas ?? [] };
  });
  return read.personas.map((persona) => {
    const seat = read.seats.find((entry) => entry.personaId === persona.id);
    return { id: persona.id, name: persona.name, usage: seat?.usage, expected: contextGauge(seat?.usage), drawn: read.bars[persona.id], mirror: read.mirror[persona.id] };
  });
}

test('every character shows a context bar whose level follows its fill: one past 80 %, one unknown', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWithUsage(page);
  await expect.poll(async () => (await bars(page)).filter((bar) => bar.drawn && bar.drawn.level === bar.expected.level && bar.drawn.percent === bar.expected.percent).length, { timeout: 20_000 }).toBe(6);
  const agents = await bars(page);
  for (const agent of agents) {
    expect(agent.mirror, `${agent.name} in the mirror`).toEqual({ level: agent.expected.level, fill: agent.expected.percent === null ? '' : String(agent.expected.percent / 100) });
    // Unknown exactly when there is no fill: never an empty calm bar for a seat without a known window.
    expect(agent.drawn.level === 'unknown', `${agent.name}: unknown iff no fill`).toBe(agent.usage?.context?.fill === undefined || agent.usage.context?.fill === null);
  }
  expect(agents.some((agent) => agent.drawn.percent !== null && agent.drawn.percent >= 80 && (agent.drawn.level === 'warning' || agent.drawn.level === 'alarm')), 'an agent past 80 %').toBe(true);
  expect(agents.some((agent) => agent.usage !== undefined && agent.drawn.level === 'unknown'), 'an agent with usage but an unknown window').toBe(true);
  // The bar is a label of its own, under its name plate and inside the character's column.
  const labels = await hook(page, (found) => found.labels());
  for (const agent of agents) {
    const bar = labels.find((label) => label.kind === 'context' && label.id === agent.id);
    const name = labels.find((label) => label.kind === 'name' && label.id === agent.id);
    expect(bar, `${agent.name}'s bar is drawn`).toBeDefined();
    if (name) expect(bar!.y).toBeGreaterThanOrEqual(name.y + name.height);
  }
  await page.screenshot({ path: test.info().outputPath('context-bars.png') });
  // Drawn in part or whole, the bars leave the same pixels.
  const frames = await hook(page, (found) => found.ticker().frames);
  await expect.poll(() => hook(page, (found) => found.ticker().frames), { timeout: 10_000 }).toBeGreaterThan(frames + 2);
  expect(await hook(page, (found) => found.redrawDifference())).toBe(0);
});

test('hovering a character shows its model, context used / window, session totals and cost', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWithUsage(page);
  const agents = await bars(page);
  const fullest = agents.filter((agent) => agent.usage?.context?.fill != null).sort((first, second) => second.usage!.context!.fill! - first.usage!.context!.fill!)[0];
  expect(fullest, 'an agent with a known fill').toBeDefined();
  const card = page.locator('[data-hover-card]');
  const hover = async (id: string) => {
    const at = await page.evaluate((persona) => (window as unknown as { __pixelfleet: UsageHook }).__pixelfleet.screenPosition('agent', persona), id);
    await page.mouse.move(at!.x, at!.y, { steps: 4 });
    await expect(card).toHaveAttribute('data-card-agent', id);
  };
  /** The card's lines and its seat's usage now, read together (the demo moves on between any two reads). */
  const shown = (id: string) =>
    page.evaluate((persona) => {
      const seat = (window as unknown as { __pixelfleet: UsageHook }).__pixelfleet.state().fleet?.seats.find((entry) => entry.personaId === persona);
      const text = (name: string) => document.querySelector<HTMLElement>(`[data-hover-card] [data-card-${name}]`);
      const lines = Object.fromEntries(['model', 'context', 'totals', 'cost', 'with-subagents', 'skipped', 'models'].map((name) => [name, text(name)?.hidden ? null : (text(name)?.textContent ?? null)]));
      return { usage: seat?.usage, lines, level: document.querySelector('[data-hover-card]')?.getAttribute('data-card-context-level') };
    }, id);
  const agrees = async (id: string) => {
    const { usage, lines, level } = await shown(id);
    const want = usageLines(usage);
    const same = lines.model === want.model && lines.context === want.context && lines.totals === want.totals && lines.cost === want.cost && lines['with-subagents'] === want.withSubagents && lines.skipped === want.skipped && lines.models === want.models && level === contextGauge(usage).level;
    return same ? { usage, lines } : null;
  };
  await hover(fullest.id);
  await expect(card).toBeVisible();
  let seen: Awaited<ReturnType<typeof agrees>> = null;
  await expect.poll(async () => (seen = await agrees(fullest.id)) !== null, { message: 'the card says what its seat holds' }).toBe(true);
  const { usage, lines } = seen!;
  expect(lines.model).toBe(usage!.model ? `model ${usage!.model}` : 'model unknown');
  expect(lines.context).toMatch(/^context \S+ \/ \S+ \(\d+ %\)$/);
  expect(lines.totals).toMatch(new RegExp(`^session ${usage!.partial ? '≥' : ''}[\\d.]+[kMBT]? tok \\(in `));
  expect(lines.cost).toMatch(usage!.cost ? new RegExp(`^cost ≥?\\$[\\d.,k]+${usage!.cost.estimated ? ' est\\.' : ''}$`) : /^cost: no price for this model$/);
  // Issue 37: the seat with its subagents by model, each with its tokens and cost (or "no price").
  expect(usage!.models?.length).toBeGreaterThan(0);
  expect(lines.models).toMatch(new RegExp(`^by model: ${usage!.models![0].model.replace(/[.]/g, '\\.')} `));
  await page.screenshot({ path: test.info().outputPath('hover-usage.png') });
  // The agent whose window is unknown says so instead of a percent.
  const unknown = agents.find((agent) => agent.usage !== undefined && agent.expected.level === 'unknown');
  if (unknown) {
    await hover(unknown.id);
    await expect.poll(async () => (await agrees(unknown.id)) !== null, { message: 'the card says what its seat holds' }).toBe(true);
    await expect(card.locator('[data-card-context]')).toHaveText(/^context (unknown|\S+ \/ window unknown)$/);
  }
});

test('the HUD line sums tokens and cost today and for the open seats, "≥" while partial', async ({ page }) => {
  await openWithUsage(page);
  await expect.poll(() => hook(page, (found) => found.state().fleet?.usage !== undefined), { timeout: 20_000 }).toBe(true);
  const hud = page.locator('[data-usage-hud]');
  await expect(hud).toBeVisible();
  await expect(hud).toHaveText(/^Today ≥?[\d.]+[kMBT]? tok .*\| Open seats ≥?[\d.]+[kMBT]? tok/);
  // The line says exactly what the fleet's usage line holds (read at one moment: the demo moves on).
  const { text, usage } = await hook(page, (found) => ({ text: found.usageHud(), usage: found.state().fleet!.usage! }));
  expect(text).toBe(hudText(usage));
  if (usage.today.partial) expect(text).toMatch(/^Today ≥/);
  if (usage.today.unpriced > 0 || usage.open.unpriced > 0) expect(text).toMatch(/unpriced/);
  await expect(hud).toHaveAttribute('data-usage-known', 'true');
});

test('the jobs board has a tokens column: a compact figure, "≥" while partial, "?" when unknown', async ({ page }) => {
  await openWithUsage(page);
  await page.keyboard.press('j');
  const board = page.locator('[data-panel="jobs"]');
  await expect(board).toBeVisible();
  await expect(board.locator('th')).toContainText(['Tokens']);
  await expect.poll(() => board.locator('tr[data-job-key]').count(), { timeout: 30_000 }).toBeGreaterThan(0);
  // Rows and the board they show, read together (the board's DOM follows the store as it changes).
  const { rows, jobs } = await page.evaluate(() => ({
    rows: [...document.querySelectorAll('[data-panel="jobs"] tr[data-job-key]')].map((node) => ({ alias: node.getAttribute('data-job-alias'), tokens: node.querySelector('[data-job-tokens]')?.textContent ?? null })),
    jobs: (window as unknown as { __pixelfleet: UsageHook }).__pixelfleet.state().jobs?.jobs ?? [],
  }));
  for (const row of rows) {
    expect(row.tokens, `job ${row.alias}`).toMatch(/^(\?|≥?[\d.]+[kMBT]? tok)$/);
    const job = jobs.find((entry) => (entry.alias ?? '') === row.alias);
    if (job) expect(row.tokens).toBe(jobTokensText(job.usage));
  }
});

test.describe('a fleet whose usage is known figure by figure', () => {
  let quiet: RunningHost;
  let quietHome: string;

  test.beforeAll(async () => {
    // No demo: nothing moves the fleet on, so the snapshot given to the page stays the one it shows.
    quietHome = await freshHome();
    quiet = await startHost({ home: quietHome });
  });

  test.afterAll(async () => {
    await quiet.stop();
    await removeHome(quietHome);
  });

  const totals = { input: 1_000_000, output: 200_000, cacheRead: 3_000_000, cacheWrite: 50_000 };
  const fills: Record<string, number | null | undefined> = { calm: 0.5, seventy: 0.75, warning: 0.85, alarm: 0.96, window: null, none: undefined };
  const expected: Record<string, { level: string; percent: number | null }> = {
    calm: { level: 'calm', percent: 50 },
    seventy: { level: 'warning', percent: 75 },
    warning: { level: 'warning', percent: 85 },
    alarm: { level: 'alarm', percent: 96 },
    window: { level: 'unknown', percent: null },
    none: { level: 'unknown', percent: null },
  };

  test('each level draws its bar, the mirror says it, hover and the HUD say the figures', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(quiet.url);
    await expect.poll(() => page.evaluate(() => Boolean((window as unknown as { __pixelfleet?: { state(): { fleet: unknown } } }).__pixelfleet?.state().fleet)), { timeout: 30_000 }).toBe(true);
    const names = Object.keys(fills);
    const snapshot = {
      cursor: 1_000_000,
      stations: [],
      personas: names.map((name, index) => ({ id: `p-${name}`, name, appearance: { body: index % 4, hair: index % 5, palette: index % 6, accessory: 0 }, role: 'builder', createdAt: '2026-12-05T08:00:00.000Z', updatedAt: '2026-12-05T08:00:00.000Z' })),
      seats: names.map((name) => {
        const fill = fills[name];
        const usage: Usage | undefined =
          fill === undefined
            ? undefined
            : { context: fill === null ? { used: 50_000, window: null, fill: null } : { used: Math.round(fill * 200_000), window: 200_000, fill }, totals, partial: name === 'alarm', model: fill === null ? 'model-unknown-window' : 'model-x', ...(fill === null ? {} : { cost: { usd: 3.41, estimated: true } }), ...(name === 'warning' ? { skipped: 2 } : {}) };
        return { id: `s-${name}`, harness: 'claude', personaId: `p-${name}`, address: { harness: 'claude', home: '/h', sessionId: name }, activity: { state: 'idle', certain: true, since: null }, ...(usage ? { usage } : {}) };
      }),
      usage: {
        since: '2026-12-05T00:00:00.000Z',
        today: { totals, cost: { usd: 3.41, estimated: true }, partial: true, unpriced: 1 },
        open: { totals, cost: { usd: 3.41, estimated: true }, partial: false, unpriced: 0 },
      },
    };
    await page.evaluate((given) => (window as unknown as { __pixelfleet: { actions: { receiveSnapshot(value: unknown): void } } }).__pixelfleet.actions.receiveSnapshot(given), snapshot);
    await expect.poll(() => hook(page, (found) => Object.keys(found.contextBars()).length)).toBe(names.length);
    const drawn = await hook(page, (found) => found.contextBars());
    for (const name of names) {
      expect(drawn[`p-${name}`], name).toMatchObject(expected[name]);
      const button = page.locator(`[data-mirror] [data-agent="p-${name}"]`);
      await expect(button).toHaveAttribute('data-context-level', expected[name].level);
      await expect(button).toHaveAttribute('data-context-fill', expected[name].percent === null ? '' : String(expected[name].percent / 100));
    }
    await expect(page.locator('[data-usage-hud]')).toHaveText('Today ≥4.2M tok · ≥$3.41 est. · 1 unpriced | Open seats 4.2M tok · $3.41 est.');
    await page.screenshot({ path: test.info().outputPath('levels.png') });
    // Nothing moves (every agent idle): the loop stops. A change of totals alone draws nothing; a new fill draws.
    await expect.poll(() => hook(page, (found) => found.ticker().running), { timeout: 15_000 }).toBe(false);
    const give = (next: unknown) => page.evaluate((given) => (window as unknown as { __pixelfleet: { actions: { receiveSnapshot(value: unknown): void } } }).__pixelfleet.actions.receiveSnapshot(given), next);
    const twoFrames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const still = await hook(page, (found) => ({ frames: found.ticker().frames, draws: found.view().draws }));
    const grown = { ...snapshot, cursor: snapshot.cursor + 1, seats: snapshot.seats.map((entry) => (entry.usage ? { ...entry, usage: { ...entry.usage, totals: { ...totals, input: totals.input + 5000 } } } : entry)) };
    await give(grown);
    await twoFrames();
    expect(await hook(page, (found) => found.state().fleet?.seats[0].usage?.totals.input)).toBe(totals.input + 5000);
    expect(await hook(page, (found) => ({ frames: found.ticker().frames, draws: found.view().draws }))).toEqual(still);
    const fuller = { ...grown, cursor: grown.cursor + 1, seats: grown.seats.map((entry) => (entry.id === 's-calm' ? { ...entry, usage: { ...entry.usage!, context: { used: 144_000, window: 200_000, fill: 0.72 } } } : entry)) };
    await give(fuller);
    await expect.poll(() => hook(page, (found) => found.contextBars()['p-calm'])).toEqual({ level: 'warning', percent: 72, fill: 0.72 });
    await expect(page.locator('[data-mirror] [data-agent="p-calm"]')).toHaveAttribute('data-context-level', 'warning');
    expect((await hook(page, (found) => found.ticker().frames)) > still.frames).toBe(true);
    expect(await hook(page, (found) => found.redrawDifference())).toBe(0);
    const card = page.locator('[data-hover-card]');
    const hover = async (name: string) => {
      const point = await page.evaluate((id) => (window as unknown as { __pixelfleet: UsageHook }).__pixelfleet.screenPosition('agent', id), `p-${name}`);
      await page.mouse.move(point!.x, point!.y, { steps: 4 });
      await expect(card).toHaveAttribute('data-card-agent', `p-${name}`);
    };
    await hover('warning');
    await expect(card.locator('[data-card-model]')).toHaveText('model model-x');
    await expect(card.locator('[data-card-context]')).toHaveText('context 170k / 200k (85 %)');
    await expect(card.locator('[data-card-totals]')).toHaveText('session 4.2M tok (in 1M · out 200k · cache read 3M · cache write 50k)');
    await expect(card.locator('[data-card-cost]')).toHaveText('cost $3.41 est.');
    await expect(card.locator('[data-card-skipped]')).toHaveText('2 usage records skipped as malformed');
    await page.screenshot({ path: test.info().outputPath('levels-hover.png') });
    await hover('alarm');
    await expect(card.locator('[data-card-totals]')).toHaveText(/^session ≥4\.2M tok/);
    await expect(card.locator('[data-card-cost]')).toHaveText('cost ≥$3.41 est.');
    await expect(card.locator('[data-card-skipped]')).toBeHidden();
    await hover('window');
    await expect(card.locator('[data-card-context]')).toHaveText('context 50k / window unknown');
    await expect(card.locator('[data-card-cost]')).toHaveText('cost: no price for this model');
    await hover('none');
    await expect(card.locator('[data-card-context]')).toHaveText('context unknown');
    await expect(card.locator('[data-card-totals]')).toHaveText('tokens unknown');
  });
});
