/**
 * The shared fixtures (real transcripts from public projects and synthetic ones) live beside the repository, not in
 * it. A fresh clone has none, so every suite that reads them asks here first: present, it runs as always; absent, it
 * prints one line saying what it would have checked and how to point it at the fixtures, and skips.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface SharedFixtures {
  /** True when the fixture folder exists; suites use `describe.skipIf(!fixtures.present)`. */
  readonly present: boolean;
  /** A path inside the fixture folder (whether or not it exists). */
  path(...parts: string[]): string;
}

/** The fixture folder: `$PIXELFLEET_FIXTURES`, else `../shared/fixtures` beside the checkout. */
export function sharedFixturesRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.PIXELFLEET_FIXTURES;
  return configured ? resolve(configured) : resolve(process.cwd(), '../shared/fixtures');
}

/** Locates the fixtures for one suite; `checks` says in a few words what the suite checks with them. */
export function sharedFixtures(checks: string): SharedFixtures {
  const root = sharedFixturesRoot();
  const present = existsSync(root);
  if (!present) {
    console.log(`skipped: ${checks} — no shared fixtures at ${root}; set PIXELFLEET_FIXTURES=<folder> to run it`);
  }
  return { present, path: (...parts) => join(root, ...parts) };
}
