// The fuzz suite's fixed-seed slice (issue 36): 2,000 mutations of valid records per harness, plus a 50 MB line, each
// read back by the real reader in a fleet beside a healthy seat. The property is in ./property.ts; `npm run fuzz`
// runs more from any seed.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../../../shared/schemas';
import { failureText, runFuzz } from './runFuzz';

/** The slice's seed and size (the issue: at least 2,000 mutations per harness). */
const SEED = 36;
const COUNT = 2_000;

describe('fuzzed records (fixed seed)', () => {
  it.each<Harness>(['claude', 'codex', 'opencode'])('%s: every mutation reads within the contract and the healthy seat keeps updating', async (harness) => {
    const outcome = await runFuzz(harness, { seed: SEED, count: COUNT, huge: true });
    expect(outcome.runs).toBeGreaterThanOrEqual(COUNT);
    expect(outcome.failure, failureText(outcome)).toBeNull();
  }, 120_000);
});
