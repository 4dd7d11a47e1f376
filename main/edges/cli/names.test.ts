// Issue 38: one source for the names the owner reads. Harness names live in shared/usagePhrases.ts (harnessText) and
// nowhere else in the page or the CLI, so a panel cannot drift into its own spelling again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');

describe('names in one place', () => {
  it('no page or CLI source keeps a harness-name table of its own (one source: shared/usagePhrases.ts)', () => {
    const root = ROOT;
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (entry.name !== 'fixtures' && entry.name !== 'node_modules') walk(path);
        } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && /opencode:\s*'OpenCode'/.test(readFileSync(join(root, path), 'utf8'))) offenders.push(path);
      }
    };
    for (const dir of ['renderer', 'main', 'shared']) walk(dir);
    expect(offenders).toEqual(['shared/usagePhrases.ts']);
  });
});
