/**
 * A station's role profile in browser mode: "Profile…" in the station menu opens the panel, a bad colour is refused
 * beside its field, an edited description is saved (and read back by the channel and `pixelfleet roles show`), the
 * export previews the file with its front matter, writes it into a project folder, and a foreign file there is only
 * replaced through Overwrite.
 */
import { test, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { ROOT, freshHome, removeHome, startHost, type RunningHost } from './host';
import { askHost, openWorld } from './world.page';

let host: RunningHost;
let home: string;

test.beforeEach(async () => {
  home = await freshHome();
  host = await startHost({ home });
});

test.afterEach(async () => {
  await host.stop();
  await removeHome(home);
});

function frontMatter(text: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(match, 'the file opens with front matter').not.toBeNull();
  return parseYaml(match![1]) as Record<string, unknown>;
}

test('edit a station\'s profile, save it, preview its export and write it into a project', async ({ page }) => {
  await openWorld(page, host);
  const station = await page.evaluate(() => window.__pixelfleet!.screenPosition('station', 'tester'));
  expect(station, 'the tester station is on screen').not.toBeNull();
  await page.mouse.click(station!.x, station!.y, { button: 'right' });
  const menu = page.locator('[data-panel="station-menu"]');
  await expect(menu.locator('[data-menu-action="profile"]')).toHaveText('Profile…');
  await menu.locator('[data-menu-action="profile"]').click();

  const panel = page.locator('[data-panel="profile"]');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-profile-for', 'tester');
  const description = panel.locator('[data-profile-field="description"]');
  await expect(description).toHaveValue(/Checks that the product does what its work items promise/);
  await expect(panel.locator('[data-profile-source]')).toContainText('built-in default');

  // A bad colour is refused beside its field, and nothing is written.
  await panel.locator('[data-profile-field="colour"]').fill('teal');
  await panel.locator('[data-profile-save]').click();
  await expect(panel.locator('[data-profile-error="colour"]')).toHaveText('a colour is #rrggbb');
  expect(await askHost(host, 'roles.profile', { role: 'tester' })).toMatchObject({ ok: true, value: { source: 'default' } });

  await panel.locator('[data-profile-field="colour"]').fill('#33aa55');
  await description.fill('Tries the product the way its owner will.');
  await panel.locator('[data-profile-save]').click();
  await expect(panel.locator('[data-profile-status]')).toContainText('Saved to');
  await expect(panel.locator('[data-profile-error="colour"]')).toBeHidden();
  expect(await askHost(host, 'roles.profile', { role: 'tester' })).toMatchObject({ ok: true, value: { source: 'file', profile: { description: 'Tries the product the way its owner will.', colour: '#33aa55' } } });
  const shown = await promisify(execFile)(process.execPath, [join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'roles', 'show', 'tester', '--json'], { cwd: ROOT, env: { ...process.env, PIXELFLEET_HOME: home } });
  expect(JSON.parse(shown.stdout)).toMatchObject({ source: 'file', profile: { description: 'Tries the product the way its owner will.' } });

  // Export: the preview shows the file with its front matter; nothing is written yet.
  const project = join(home, 'project');
  await mkdir(project);
  const file = join(project, '.claude', 'agents', 'tester.md');
  await panel.locator('[data-export-harness="claude"] input').check();
  await panel.locator('[data-export-scope="project"] input').check();
  await panel.locator('[data-export-folder]').fill(project);
  await panel.locator('[data-export-preview-button]').click();
  await expect(panel.locator('[data-export-preview]')).toContainText('name: tester');
  await expect(panel.locator('[data-export-preview]')).toContainText('description: Tries the product the way its owner will.');
  await expect(panel.locator('[data-export-status]')).toContainText(`Would write ${file}`);
  await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  await page.screenshot({ path: test.info().outputPath('profile-preview.png') });

  await panel.locator('[data-export-write]').click();
  await expect(panel.locator('[data-export-status]')).toContainText(`Wrote ${file}`);
  expect(frontMatter(await readFile(file, 'utf8'))).toMatchObject({ name: 'tester', description: 'Tries the product the way its owner will.' });

  // A file Pixelfleet did not write is refused with its reason; Overwrite replaces it.
  await writeFile(file, '---\nname: tester\ndescription: the owner\'s own\n---\n\nMine.\n');
  await panel.locator('[data-export-write]').click();
  await expect(panel.locator('[data-export-reason]')).toContainText('was not written by Pixelfleet');
  expect(await readFile(file, 'utf8')).toContain('Mine.');
  await panel.locator('[data-export-force]').click();
  await expect(panel.locator('[data-export-status]')).toContainText(`Wrote ${file}`);
  await expect(panel.locator('[data-export-force]')).toHaveCount(0);
  expect(frontMatter(await readFile(file, 'utf8')).description).toBe('Tries the product the way its owner will.');

  // Codex: without a `codex` on PATH the format cannot be determined, and nothing is offered to force.
  const codex = await promisify(execFile)('sh', ['-c', 'command -v codex']).then(() => true, () => false);
  if (codex) console.log('e2e/profile.spec.ts: the Codex refusal is not checked — a `codex` is on PATH here.');
  if (codex) return;
  await panel.locator('[data-export-harness="codex"] input').check();
  await panel.locator('[data-export-write]').click();
  await expect(panel.locator('[data-export-reason]')).toContainText('cannot be determined');
  await expect(panel.locator('[data-export-force]')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('profile-written.png') });
});
