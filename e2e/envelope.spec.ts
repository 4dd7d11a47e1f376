/**
 * Messages between agents of the demo's team walk as envelopes from sender to recipient, read through the page's
 * test hook: a new inbox message starts an envelope at the sender that moves toward the recipient and is delivered.
 */
import { test, expect, type Page } from '@playwright/test';
import { demoHostForEachTest, openWorld } from './world.page';

// Each test holds its own host on a fresh home, so the file's tests may run on different workers at once.
test.describe.configure({ mode: 'parallel' });

interface PageEnvelope {
  id: string;
  from: string;
  to: string;
  fromPersonaId: string | null;
  toPersonaId: string | null;
  summary: string | null;
  walks: boolean;
  progress: number;
  screen: { x: number; y: number } | null;
}

interface TeamState {
  name: string;
  leadPersonaId: string | null;
  members: { name: string; personaId: string | null }[];
  messages: { id: string }[];
}

const demo = demoHostForEachTest();

function envelopes(page: Page): Promise<PageEnvelope[]> {
  return page.evaluate(() => (window as unknown as { __pixelfleet: { envelopes(): PageEnvelope[] } }).__pixelfleet.envelopes());
}

function teams(page: Page): Promise<TeamState[]> {
  return page.evaluate(() => (window as unknown as { __pixelfleet: { state(): { fleet: { teams?: TeamState[] } } } }).__pixelfleet.state().fleet.teams ?? []);
}

function agentAt(page: Page, personaId: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), personaId);
}

test('an envelope walks from one agent of the demo team to another and is delivered', async ({ page }) => {
  await openWorld(page, demo.host);
  await expect.poll(async () => (await teams(page)).map((team) => team.name)).toEqual(['demo-crew']);
  const [team] = await teams(page);
  expect(team.leadPersonaId).not.toBeNull();
  expect(team.members.filter((member) => member.personaId !== null)).toHaveLength(3);

  // The demo sends a message every few seconds: wait for one that walks between two agents in the world.
  let walking: PageEnvelope | undefined;
  await expect
    .poll(async () => {
      walking = (await envelopes(page)).find((envelope) => envelope.walks && envelope.progress < 0.8 && envelope.screen !== null);
      return walking !== undefined;
    }, { timeout: 20_000, intervals: [100] })
    .toBe(true);
  const envelope = walking!;
  expect(envelope.summary).toMatch(/\S/);
  expect(envelope.summary!.length).toBeLessThanOrEqual(60);
  const members = new Map(team.members.map((member) => [member.personaId, member.name]));
  expect(members.get(envelope.fromPersonaId)).toBe(envelope.from);
  expect(members.get(envelope.toPersonaId)).toBe(envelope.to);

  const from = (await agentAt(page, envelope.fromPersonaId!))!;
  const to = (await agentAt(page, envelope.toPersonaId!))!;
  const distance = (point: { x: number; y: number }) => Math.hypot(point.x - to.x, point.y - to.y);
  const first = envelope.screen!;
  // It moves toward the recipient…
  await expect
    .poll(async () => {
      const now = (await envelopes(page)).find((entry) => entry.id === envelope.id)!;
      return now.progress >= 1 || (now.screen !== null && distance(now.screen) < distance(first) - 5);
    }, { timeout: 5_000, intervals: [50] })
    .toBe(true);
  expect(Math.min(from.x, to.x) - 40).toBeLessThanOrEqual(first.x);
  expect(first.x).toBeLessThanOrEqual(Math.max(from.x, to.x) + 40);
  // …and is delivered.
  await expect
    .poll(async () => (await envelopes(page)).find((entry) => entry.id === envelope.id)?.progress, { timeout: 10_000 })
    .toBe(1);
  await page.screenshot({ path: test.info().outputPath('envelope-delivered.png') });
});

test('the demo team\'s agents wear the team badge, and a card lists the team\'s members with their state', async ({ page }) => {
  await openWorld(page, demo.host);
  await expect.poll(async () => (await teams(page)).map((team) => team.name)).toEqual(['demo-crew']);
  const [team] = await teams(page);
  const memberIds = team.members.map((member) => member.personaId).filter((id): id is string => id !== null);
  expect(memberIds).toHaveLength(3);
  for (const id of memberIds) {
    await expect(page.locator(`[data-agent="${id}"]`)).toHaveAttribute('data-team', 'demo-crew');
    await expect(page.locator(`[data-agent="${id}"]`)).toHaveAttribute('data-team-lead', id === team.leadPersonaId ? 'true' : 'false');
  }
  // Agents outside the team carry no badge.
  const others = await page.locator('[data-agent]').evaluateAll((buttons, ids) => buttons.filter((button) => !ids.includes(button.getAttribute('data-agent')!)).map((button) => button.getAttribute('data-team')), memberIds);
  expect(others.every((value) => value === '')).toBe(true);

  // The lead's card lists the team's members, each with the state of its own seat (all three are seats in the demo).
  await page.locator(`[data-agent="${team.leadPersonaId}"]`).evaluate((button: HTMLElement) => button.click());
  const block = page.locator('[data-panel="tray"] [data-card-team="demo-crew"]');
  await expect(block).toBeVisible();
  await expect(block.locator('h3')).toHaveText('Team demo-crew (this agent leads it)');
  await expect.poll(() => block.locator('[data-team-member]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-team-member')))).toEqual(team.members.map((member) => member.name));
  const states = await block.locator('[data-team-member]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-member-state')));
  expect(states.every((state) => state !== null && ['working', 'needs-you', 'idle', 'unknown'].includes(state))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('team-card.png') });
});
