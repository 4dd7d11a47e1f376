/**
 * Drift in the world (issue 29): a seat whose journal carries record kinds its reader does not know, from a Claude
 * Code version newer than the tested range, shows a drift mark; hovering (or focusing) it says which kinds and that
 * counts may be incomplete; the mirror and the page hook carry it; its activity is uncertain while an unknown kind is
 * the newest record.
 */
import { test, expect, type Page } from '@playwright/test';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from './host';
import { askHost } from './world.page';

const FUTURE = 'f0f0f0f0-2222-4333-8444-555555555555';
const PLAIN = 'f0f0f0f2-2222-4333-8444-555555555555';

interface DriftHook {
  drift(): Record<string, string[] | null>;
  state(): { fleet: { personas: { id: string; name: string }[]; seats: { personaId: string; activity: { certain: boolean } }[] } | null };
}

const personaOf = (page: Page, name: string) =>
  page.evaluate((wanted) => (window as unknown as { __pixelfleet?: DriftHook }).__pixelfleet?.state().fleet?.personas.find((persona) => persona.name === wanted)?.id ?? null, name);
const marks = (page: Page) => page.evaluate(() => (window as unknown as { __pixelfleet?: DriftHook }).__pixelfleet?.drift() ?? {});

test.describe('drift marks', () => {
  let home: string;
  let host: RunningHost;

  test.beforeAll(async () => {
    home = await freshHome();
    const folder = join(home, 'claude', 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    await copyFile(join(ROOT, 'main/sources/readers/claude/fixtures/drift-future-2.3.0.jsonl'), join(folder, `${FUTURE}.jsonl`));
    const at = new Date(Date.now() - 60_000).toISOString();
    const plain = { sessionId: PLAIN, isSidechain: false, cwd: '/work/app', version: '2.1.114', timestamp: at };
    await writeFile(join(folder, `${PLAIN}.jsonl`), `${JSON.stringify({ ...plain, type: 'user', uuid: 'p1', message: { role: 'user', content: 'Go.' } })}\n`);
    host = await startHost({ home });
    for (const [id, name] of [[FUTURE, 'Ada'], [PLAIN, 'Bram']]) {
      const opened = await askHost(host, 'seats.open', { candidateId: `claude:${id}`, name });
      expect(opened.ok, opened.error?.message).toBe(true);
    }
  });

  test.afterAll(async () => {
    await host?.stop();
    await removeHome(home);
  });

  test('a seat with unknown kinds from an untested version shows the mark, names the kinds on hover and in the mirror', async ({ page }) => {
    await page.goto(host.url);
    await expect.poll(() => personaOf(page, 'Bram'), { timeout: 30_000 }).not.toBeNull();
    const ada = (await personaOf(page, 'Ada'))!;
    const bram = (await personaOf(page, 'Bram'))!;
    await expect.poll(() => marks(page)).toEqual({ [ada]: ['agent-handoff', 'block:tool_reference', 'checkpoint-marker'], [bram]: null });
    // The newest record is of an unknown kind: what the seat is doing is not certain.
    const certain = await page.evaluate((id) => (window as unknown as { __pixelfleet: DriftHook }).__pixelfleet.state().fleet!.seats.find((seat) => seat.personaId === id)!.activity.certain, ada);
    expect(certain).toBe(false);

    const mirrored = page.locator(`[data-mirror] [data-agent="${ada}"]`);
    await expect(mirrored).toHaveAttribute('data-drift', /agent-handoff/);
    await expect(mirrored).toHaveAttribute('aria-label', /counts may be incomplete/);
    await expect(page.locator(`[data-mirror] [data-agent="${bram}"]`)).toHaveAttribute('data-drift', '');

    const card = page.locator('[data-hover-card]');
    const at = await page.evaluate((id) => (window as unknown as { __pixelfleet: { screenPosition(kind: 'agent', id: string): { x: number; y: number } | null } }).__pixelfleet.screenPosition('agent', id), ada);
    await page.mouse.move(at!.x, at!.y);
    await expect(card).toHaveAttribute('data-card-agent', ada);
    await expect(card.locator('[data-card-drift]')).toBeVisible();
    await expect(card.locator('[data-card-drift]')).toContainText('agent-handoff');
    await expect(card.locator('[data-card-drift]')).toContainText('2.3.0');
    await expect(card.locator('[data-card-drift]')).toContainText('counts may be incomplete');
    await page.screenshot({ path: test.info().outputPath('drift.png') });
  });
});
