/** The pixel world in browser mode over the demo fleet: what a person does — look, drag, pick a role, open a tray. */
import { test, expect, type Page } from './demoHost';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_ROLES, parseRole } from '../shared/roles';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { askHost, dragAgent, openWorld, roleOf } from './world.page';

// Files and tests spread over the workers: every test below holds its own host, or the worker's shared one.
test.describe.configure({ mode: 'parallel' });

/** The first persona holding `role` (a role key), per the page's state. */
async function personaWithRole(page: Page, role: string | null): Promise<string> {
  const id = await page.evaluate((wanted) => {
    const personas = window.__pixelfleet!.state().fleet!.personas;
    return personas.find((persona) => (persona.role ?? null) === wanted)?.id ?? personas.find((persona) => persona.role)?.id ?? null;
  }, role);
  expect(id).not.toBeNull();
  return id!;
}

test.describe('on the worker\'s demo host (these tests keep nothing on the host)', () => {
  test('the world loads with the token: six stations, the lobby, WebGL', async ({ page, sharedDemo: host }) => {
    await openWorld(page, host);
    const stations = await page.locator('[data-station]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-station')));
    expect(stations.slice(0, 6)).toEqual([...BUILT_IN_ROLES]);
    expect(stations).toContain('');
    expect(stations).toContain('sound designer');
    expect(await page.evaluate(() => window.__pixelfleet!.renderer)).toBe('webgl');
    // WebGL runs in software here: the canvas is low-latency, so the page does not wait for each frame's readback.
    const context = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return { renderer: gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '', desynchronized: window.__pixelfleet!.desynchronized };
    });
    expect(context.renderer).toMatch(/swiftshader/i);
    expect(context.desynchronized).toBe(true);
    await page.screenshot({ path: test.info().outputPath('world.png') });
  });

  test('fit all fills a 1280×800 window at a crisp zoom of 2 or more, and a click on a badge opens the tray', async ({ page, sharedDemo: host }) => {
    await openWorld(page, host);
    const view = await page.evaluate(() => window.__pixelfleet!.view());
    expect(view.zoom).toBeGreaterThanOrEqual(2);
    expect(Number.isInteger(view.zoom * 2)).toBe(true);
    // Centred, inside the window, and using most of its width or height.
    expect(view.offsetX).toBeGreaterThanOrEqual(0);
    expect(view.offsetX + view.width * view.zoom).toBeLessThanOrEqual(1280);
    expect(view.offsetY + view.height * view.zoom).toBeLessThanOrEqual(800);
    expect(Math.max((view.width * view.zoom) / 1280, (view.height * view.zoom) / 800)).toBeGreaterThan(0.85);

    const agent = await page.evaluate(() => window.__pixelfleet!.state().fleet!.seats.find((seat) => (seat.subagents?.running ?? 0) > 0)?.personaId ?? null);
    test.skip(agent === null, 'no demo agent runs subagents right now');
    const badge = await page.evaluate((id) => window.__pixelfleet!.labels().find((label) => label.kind === 'badge' && label.id === id) ?? null, agent);
    expect(badge, 'the badge is drawn').not.toBeNull();
    await page.mouse.click(badge!.x + badge!.width / 2, badge!.y + badge!.height / 2);
    await expect(page.locator('[data-panel="tray"]')).toBeVisible();
  });

  test('a role the host refuses rolls back with a message', async ({ page, sharedDemo: host }) => {
    await openWorld(page, host);
    const id = await personaWithRole(page, 'planner');
    const before = await roleOf(page, id);
    const accepted = await page.evaluate((persona) => window.__pixelfleet!.actions.setRole(persona, '#not a role'), id);
    expect(accepted).toBe(false);
    // The mirror follows the store on the next animation frame.
    await expect.poll(() => roleOf(page, id)).toBe(before);
    expect(await page.evaluate((persona) => window.__pixelfleet!.state().ui.pending[persona], id)).toBeUndefined();
    await expect(page.locator('[data-message="error"]').first()).toBeVisible();
  });

  test('the picker lists roles in roles.list order and refuses an invalid custom role with its rule', async ({ page, sharedDemo: host }) => {
    await openWorld(page, host);
    const id = await personaWithRole(page, 'builder');
    await page.locator(`[data-agent="${id}"]`).focus();
    await page.keyboard.press('r');
    const picker = page.locator('[data-panel="picker"]');
    await expect(picker).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.__pixelfleet!.state().roles?.length ?? 0)).toBeGreaterThan(6);
    const listed = await picker.locator('[data-role-option]:not([data-role-option=""])').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-role-option')));
    const roles = await page.evaluate(() => window.__pixelfleet!.state().roles!.map((entry) => entry.role));
    expect(listed).toEqual(roles);
    expect(listed.slice(0, 6)).toEqual([...BUILT_IN_ROLES]);
    expect(listed).toContain('Sound Designer');
    const invalid = '#oops';
    const rule = parseRole(invalid);
    expect(rule.ok).toBe(false);
    await picker.locator('[data-custom-role]').fill(invalid);
    await expect(picker.locator('[data-role-error]')).toHaveText(rule.ok ? '' : rule.reason);
    await expect(picker.locator('[data-assign]')).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath('picker.png') });
  });

  test('a tray lists recent subagents, a replay shows the child, and collapsing stops its reads', async ({ page, sharedDemo: host }) => {
    await openWorld(page, host);
    const runningReplayable = () =>
      page.evaluate(() => {
        for (const seat of window.__pixelfleet!.state().fleet!.seats) {
          const entry = seat.subagents?.recent.find((candidate) => candidate.replayable && candidate.nativeId && candidate.state === 'running');
          if (entry) return { personaId: seat.personaId, nativeId: entry.nativeId! };
        }
        return null;
      });
    await expect.poll(runningReplayable, { timeout: 30_000 }).not.toBeNull();
    const target = (await runningReplayable())!;
    await page.locator(`[data-agent="${target.personaId}"]`).focus();
    await page.keyboard.press('Enter');
    const tray = page.locator('[data-panel="tray"]');
    await expect(tray).toBeVisible();
    const entries = tray.locator('li[data-subagent]');
    await expect.poll(() => entries.count()).toBeGreaterThan(0);
    expect(await entries.count()).toBeLessThanOrEqual(8);
    await page.screenshot({ path: test.info().outputPath('tray.png') });

    const requests = () => page.evaluate(() => window.__pixelfleet!.state().counters.replayRequests);
    await tray.locator(`[data-replay="${target.nativeId}"]`).click();
    const log = tray.locator('[data-replay-log]');
    await expect(log.locator('[data-line-role]').first()).toBeVisible();
    expect((await log.innerText()).trim().length).toBeGreaterThan(0);
    const opened = await requests();
    // While the child runs its replay is read again; a demo child may end first, and then it is not.
    const followed = () =>
      page.evaluate((before) => {
        const state = window.__pixelfleet!.state();
        return state.counters.replayRequests > before || state.replay?.running === false;
      }, opened);
    await expect.poll(followed, { timeout: 8_000 }).toBe(true);
    if (await page.evaluate(() => window.__pixelfleet!.state().replay?.running === true)) expect(await requests()).toBeGreaterThan(opened);
    await page.screenshot({ path: test.info().outputPath('replay.png') });

    await tray.locator('[data-collapse]').click();
    await expect(log).toHaveCount(0);
    const collapsed = await requests();
    // Two and a half refresh periods: a replay still being followed would have read again by now.
    await page.waitForTimeout(5_000);
    expect(await requests()).toBe(collapsed);
  });

  test('with reduced motion the ticker stops when nothing moves', async ({ page, sharedDemo: host }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openWorld(page, host);
    await expect.poll(() => page.evaluate(() => window.__pixelfleet!.ticker().running), { timeout: 15_000 }).toBe(false);
    expect(await page.evaluate(() => window.__pixelfleet!.ticker().frames)).toBeGreaterThan(0);
  });
});

test.describe('each on a fresh demo home (these tests change what the host keeps)', () => {
  let host: RunningHost;
  let home: string;

  test.beforeEach(async () => {
    home = await freshHome();
    host = await startHost({ home, args: ['--demo'] });
  });

  test.afterEach(async () => {
    await host.stop();
    await removeHome(home);
  });

  test('dragging an agent to a station persists its role; dropping it on the lobby clears it', async ({ page }) => {
    await openWorld(page, host);
    const id = await personaWithRole(page, 'builder');
    const before = await roleOf(page, id);
    const target = before === 'tester' ? 'reviewer' : 'tester';
    await dragAgent(page, id, target);
    await expect.poll(() => roleOf(page, id)).toBe(target);
    await expect.poll(() => page.evaluate((persona) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === persona)?.role, id)).toBe(target);

    await host.stop();
    host = await startHost({ home, args: ['--demo'] });
    await openWorld(page, host);
    await expect.poll(() => roleOf(page, id)).toBe(target);

    await dragAgent(page, id, '');
    await expect.poll(() => roleOf(page, id)).toBe('');
    await expect.poll(() => page.evaluate((persona) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === persona)?.role ?? null, id)).toBeNull();
  });

  test('a seat whose subagents cannot be read shows "?"', async ({ page }) => {
    await openWorld(page, host);
    // A seat must be a discovered session: hire one under the demo's Claude home, then take its journal away.
    const folder = join(host.home, 'demo', 'claude', 'projects', '-ghost');
    const journal = join(folder, 'missing-session.jsonl');
    await mkdir(folder, { recursive: true });
    await writeFile(journal, `${JSON.stringify({ type: 'user', sessionId: 'missing-session', timestamp: new Date().toISOString(), message: { role: 'user', content: 'hi' } })}\n`);
    const hired = await askHost(host, 'agents.hire', { name: 'Ghost', seat: { harness: 'claude', home: host.home, sessionId: 'missing-session' } });
    expect(hired.ok).toBe(true);
    const id = (hired.value as { id: string }).id;
    await rm(journal);
    await expect.poll(() => page.locator(`[data-agent="${id}"]`).getAttribute('data-subagents'), { timeout: 15_000 }).toBe('?');
  });

  test('typing redraws only the characters that changed, and what is drawn in part equals the scene drawn whole', async ({ page }) => {
    await openWorld(page, host);
    const draws = () => page.evaluate(() => window.__pixelfleet!.view().draws);
    const frames = () => page.evaluate(() => window.__pixelfleet!.ticker().frames);
    const before = await draws();
    // The demo's working agents type at the sprite cadence: each tick draws their characters again, not the floor.
    await expect.poll(async () => (await draws()).partial - before.partial, { timeout: 15_000 }).toBeGreaterThanOrEqual(10);
    const after = await draws();
    expect(after.full - before.full).toBeLessThan(after.partial - before.partial);
    const exact = async () => {
      const start = await frames();
      await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(start + 3);
      expect(await page.evaluate(() => window.__pixelfleet!.redrawDifference())).toBe(0);
    };
    await exact();
    await exact();
    // An agent walking to another station draws where it was and where it is, and leaves nothing behind.
    const id = await personaWithRole(page, 'builder');
    await page.evaluate((persona) => window.__pixelfleet!.actions.setRole(persona, 'tester'), id);
    await expect.poll(() => page.evaluate((persona) => window.__pixelfleet!.poses()[persona], id)).toBe('walk');
    await exact();
    await expect.poll(() => page.evaluate((persona) => window.__pixelfleet!.poses()[persona], id), { timeout: 20_000 }).not.toBe('walk');
    await exact();
  });
});

test('a still world asks for no animation frames at all', async ({ page }) => {
  // An empty home: nothing writes, so once the first frames are drawn the page is at rest.
  const home = await freshHome();
  const host = await startHost({ home });
  try {
    // Count every animation frame the page asks for, Pixi's own tickers included.
    await page.addInitScript(() => {
      const counted = window as unknown as { __frameRequests: number };
      counted.__frameRequests = 0;
      const request = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) => {
        counted.__frameRequests += 1;
        return request(callback);
      };
    });
    await openWorld(page, host);
    await expect.poll(() => page.evaluate(() => window.__pixelfleet!.ticker().running), { timeout: 15_000 }).toBe(false);
    const requests = () => page.evaluate(() => (window as unknown as { __frameRequests: number }).__frameRequests);
    const before = await requests();
    // An observation window, not a wait for something: no frame may be asked for during it.
    await page.waitForTimeout(2000);
    expect(await requests()).toBe(before);
    expect(await page.evaluate(() => window.__pixelfleet!.ticker().running)).toBe(false);
  } finally {
    await host.stop();
    await removeHome(home);
  }
});
