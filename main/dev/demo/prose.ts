/**
 * Harmless demo vocabulary: projects, character names, roles, prompts, labels and short assistant prose.
 * Kept short on purpose so an hour of simulated work stays within a few MiB per journal.
 */

/** Project folder names under /home/demo/src. */
export const PROJECTS = [
  'lantern-parser',
  'tidepool-api',
  'mossy-ui',
  'kettle-cli',
  'orchard-docs',
  'harbor-sync',
  'pebble-audio',
  'willow-store',
  'comet-charts',
  'burrow-auth',
] as const;

/** Pleasant pixel-character names for suggested personas. */
export const CHARACTER_NAMES = [
  'Pip',
  'Bramble',
  'Juniper',
  'Momo',
  'Tansy',
  'Biscuit',
  'Nori',
  'Fable',
  'Quill',
  'Sprocket',
  'Clover',
  'Wren',
  'Pixel',
  'Marzipan',
  'Tofu',
  'Basil',
] as const;

/** The custom (non built-in) role the demo uses, so custom stations show up on first run. */
export const CUSTOM_ROLE = 'Sound Designer';

/** Suggested roles in rotation: the built-in stations, one custom role, and one unassigned seat. */
export const ROLE_ROTATION: readonly (string | null)[] = ['planner', 'builder', 'tester', 'reviewer', CUSTOM_ROLE, null];

/** Subagent types the demo spawns. */
export const SUBAGENT_TYPES = ['Explore', 'Plan', 'general-purpose', 'code-reviewer', 'test-runner'] as const;

/** Short spawn labels (the Agent call's `description`). */
export const AGENT_LABELS = [
  'Map parser exports',
  'Find flaky tests',
  'Review error handling',
  'Sketch the config loader',
  'Audit log messages',
  'Trace the retry path',
  'Check docs for drift',
  'Measure startup time',
  'Survey icon sizes',
  'List unused helpers',
  'Plan the cache split',
  'Run the slow suite',
  'Tune the mixer levels',
  'Compare build outputs',
  'Scan for TODO notes',
  'Outline release notes',
] as const;

/** Owner prompts that open a turn. */
export const USER_PROMPTS = [
  'Please tidy up the parser module and keep the public API stable.',
  'Can you find out why the settings page loads slowly?',
  'Add a small test for the date formatting helper.',
  'Review the last change to the sync queue for edge cases.',
  'Plan the next step for the offline mode.',
  'Make the footer chime a little softer.',
  'Check that the docs match the command line flags.',
] as const;

/** Assistant prose, main thread and subagents alike. */
export const ASSISTANT_LINES = [
  'Scanning the parser module for unused exports.',
  'The retry loop looks fine; the timeout is the interesting part.',
  'I will split this into two small steps and check each one.',
  'Reading the config loader to see where defaults come from.',
  'Two helpers are never called; I will note them for review.',
  'The test suite passes locally; one case is slow but stable.',
  'Drafting a short plan before touching any files.',
  'The footer chime is now a gentle two-note arpeggio.',
  'Everything in the docs lines up with the flags except one alias.',
  'Looking at how the cache is invalidated after a sync.',
] as const;

/** Final reports of subagents. */
export const FINAL_REPORTS = [
  'Done. Found three unused exports and one stale comment.',
  'Finished. The slow path comes from an unbatched loop; a fix is sketched.',
  'Complete. All tests pass; two could share a fixture.',
  'Done. The plan has four steps, the first one is small.',
  'Finished the review: no blocking issues, two small suggestions.',
] as const;

/** Files the simulated tools touch. */
export const FILES = ['src/parser.ts', 'src/cache.ts', 'src/config.ts', 'src/sync/queue.ts', 'docs/cli.md', 'test/date.test.ts', 'assets/sfx/chime.json'] as const;

/** Shell commands the simulated Bash tool runs. */
export const COMMANDS = ['npm test', 'git status --short', 'ls src', 'npm run lint', 'git diff --stat'] as const;
