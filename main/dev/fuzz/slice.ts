/**
 * The fuzz suite's fixed-seed slice (issue 36), one test file per harness so the three run side by side: 2,000
 * random mutations of valid records, after fixed examples of the huge inputs (a 50 MB line; a 1 MB string and a
 * 10,000-deep nesting in every record), each read back by the real reader in a host beside a healthy seat.
 */
import { expect, it } from 'vitest';
import type { Harness } from '../../../shared/schemas';
import { failureText, runFuzz } from './runFuzz';

/** The slice's seed. */
export const SLICE_SEED = 36;
/** Mutations per harness in the slice (the issue: at least 2,000). */
export const SLICE_COUNT = 2_000;

/** Declares the slice's test for one harness. */
export function sliceTest(harness: Harness): void {
  it(`${harness}: every mutation reads within the contract and the healthy seat keeps updating`, async () => {
    const outcome = await runFuzz(harness, { seed: SLICE_SEED, count: SLICE_COUNT, huge: true, light: true });
    expect(outcome.failure, failureText(outcome)).toBeNull();
    expect(outcome.runs).toBeGreaterThanOrEqual(SLICE_COUNT);
  }, 300_000);
}
