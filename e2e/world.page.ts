/** A page object for the world: reads state through `window.__pixelfleet` and drives the real mouse and keyboard. */
import { expect, test, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { freshHome, removeHome, startHost, type RunningHost } from './host';

/** The parts of the page hook the tests read. */
interface Hook {
  state(): { fleet: { personas: { id: string; name: string; role?: string }[]; seats: { personaId: string; subagents?: { running: number; recent: { nativeId: string | null; replayable: boolean; state: string; label: string }[] } }[] } | null; roles: { role: string; builtIn: boolean }[] | null; counters: { replayRequests: number }; replay?: { running: boolean } | null; ui: { pending: Record<string, unknown>; focused?: string | null } };
  actions: { setRole(id: string, role: string | null): Promise<boolean> };
  screenPosition(kind: 'agent' | 'station', id: string): { x: number; y: number } | null;
  renderer: string;
  rendererName: string;
  desynchronized: boolean;
  ticker(): { running: boolean; frames: number };
  view(): { zoom: number; offsetX: number; offsetY: number; width: number; height: number; paints: number; draws: { full: number; partial: number } };
  redrawDifference(): number;
  poses(): Record<string, string>;
  labels(): { kind: string; id: string; x: number; y: number; width: number; height: number; text?: string }[];
  seating(): { id: string; harness: string | null; station: string; state: string; pose: string; frame: string; feet: { x: number; y: number }; desk: { x: number; y: number; width: number; height: number } }[];
  history(): { timeline: boolean; mode: 'live' | 'past'; at: string | null; handle: string | null; playing: number | null; span: { from: string | null; to: string } | null; held: { from: string; until: string } | null; away: { kind: string; personaId: string; text: string }[] | null };
  simulateAway(minutes: number): Promise<void>;
}

declare global {
  interface Window {
    __pixelfleet?: Hook;
  }
}

/** Opens the world and waits until the fleet is drawn. */
export async function openWorld(page: Page, host: RunningHost): Promise<void> {
  await page.goto(host.url);
  await expect.poll(() => page.evaluate(() => Boolean(window.__pixelfleet?.state().fleet)), { timeout: 30_000 }).toBe(true);
}

/** The role key the mirror shows for an agent. */
export function roleOf(page: Page, personaId: string): Promise<string | null> {
  return page.locator(`[data-agent="${personaId}"]`).getAttribute('data-role');
}

/** Drags an agent onto a station with the real mouse, through the positions the page reports. */
export async function dragAgent(page: Page, personaId: string, stationKey: string): Promise<void> {
  const from = await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), personaId);
  const to = await page.evaluate((key) => window.__pixelfleet!.screenPosition('station', key), stationKey);
  expect(from, `agent ${personaId} is on screen`).not.toBeNull();
  expect(to, `station "${stationKey}" is on screen`).not.toBeNull();
  await page.mouse.move(from!.x, from!.y);
  await page.mouse.down();
  await page.mouse.move(from!.x + 10, from!.y + 10, { steps: 3 });
  await page.mouse.move(to!.x, to!.y, { steps: 12 });
  await page.mouse.up();
}

/** Drags a backlog card with the real mouse to a page point (the backlog panel open). */
export async function dragCard(page: Page, itemId: string, to: { x: number; y: number }): Promise<void> {
  const card = page.locator(`[data-panel="backlog"] [data-work-card="${itemId}"]`);
  // The list may be redrawn by a fleet update between two calls: wait until the card has a box to press.
  let found: { x: number; y: number; width: number; height: number } | null = null;
  await expect.poll(async () => (found = await card.boundingBox()) !== null).toBe(true);
  const box = found!;
  await page.mouse.move(box.x + box.width - 8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2 + 10, { steps: 3 });
  await expect(page.locator('[data-card-ghost]')).toBeVisible();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

/** Asks the host one contract question over its WebSocket, as the page would. */
export async function askHost(host: RunningHost, channel: string, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: host.origin } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  try {
    return await new Promise((resolve) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString());
        if (message.id === 1) resolve(message);
      });
      socket.send(JSON.stringify({ id: 1, channel, payload }));
    });
  } finally {
    socket.close();
  }
}

/** A fresh demo fleet in its own home for each test of the file: started before it, stopped and removed after. */
export function demoHostForEachTest(): { readonly host: RunningHost } {
  const current = {} as { host: RunningHost; home: string };
  test.beforeEach(async () => {
    current.home = await freshHome();
    current.host = await startHost({ home: current.home, args: ['--demo'] });
  });
  test.afterEach(async () => {
    await current.host.stop();
    await removeHome(current.home);
  });
  return current;
}

/** Where the first-run hint and an open panel overlap, which one the owner sees ('no overlap' when they do not). */
export function whichIsOnTop(page: Page, panel: string): Promise<'no overlap' | 'panel on top' | 'hint on top'> {
  return page.evaluate((name) => {
    const hint = document.querySelector('[data-panel="empty-hint"]')!.getBoundingClientRect();
    const open = document.querySelector(`[data-panel="${name}"]`)!;
    const box = open.getBoundingClientRect();
    const left = Math.max(hint.left, box.left), right = Math.min(hint.right, box.right);
    const top = Math.max(hint.top, box.top), bottom = Math.min(hint.bottom, box.bottom);
    if (left >= right || top >= bottom) return 'no overlap';
    return open.contains(document.elementFromPoint((left + right) / 2, (top + bottom) / 2)) ? 'panel on top' : 'hint on top';
  }, panel);
}
