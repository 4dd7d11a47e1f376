/**
 * Runs the fuzz property over one harness with fast-check (issue 36): `count` mutations from `seed`, plus the
 * fixed examples every run holds (a 50 MB line). A failure comes back shrunk to its least mutation, with the seed
 * and path that replay it.
 */
import fc from 'fast-check';
import type { Harness } from '../../../shared/schemas';
import { FUZZ_HARNESSES } from './harnesses';
import { describeMutation, heavyExamples, mutations, type Mutation } from './mutate';

/** One harness's fuzz outcome. */
export interface FuzzOutcome {
  harness: Harness;
  runs: number;
  /** Null when every mutation held; else the failure to reproduce. */
  failure: null | { seed: number; path: string | undefined; mutation: string; reason: string; record: string };
}

/**
 * Runs `count` random mutations of `harness`'s records from `seed`, after the fixed examples: with `huge`, the 50 MB
 * line and (`heavyExamples`) a 1 MB string and a 10,000-deep nesting in every record. `light` leaves those huge
 * inputs out of the random mutations (the unit suite's slice: they run as the fixed examples instead).
 */
export async function runFuzz(harness: Harness, options: { seed: number; count: number; huge?: boolean; light?: boolean; path?: string }): Promise<FuzzOutcome> {
  const setup = FUZZ_HARNESSES[harness]();
  const reasons = new Map<string, string>();
  try {
    const property = fc.asyncProperty(mutations(setup.records.length, !options.light), async (change: Mutation[]) => {
      const reason = await setup.run(change);
      if (reason !== null) reasons.set(describeMutation(change), reason);
      return reason === null;
    });
    const fixed: Mutation[][] = options.huge ? [[{ kind: 'huge-line', record: setup.records.length - 1 }], ...heavyExamples(setup.records.length)] : [];
    const examples: [Mutation[]][] = fixed.map((example) => [example]);
    // fast-check counts the examples among its runs: `count` random mutations come on top of them.
    const result = await fc.check(property, { seed: options.seed, numRuns: options.count + examples.length, examples, endOnFailure: false, ...(options.path ? { path: options.path } : {}) });
    if (!result.failed || !result.counterexample) return { harness, runs: result.numRuns - examples.length, failure: null };
    const least = result.counterexample[0];
    const described = describeMutation(least);
    const record = [...new Set(least.map((change) => change.record))].map((index) => JSON.stringify(setup.records[index])).join('\n    ');
    return {
      harness,
      runs: result.numRuns,
      failure: { seed: result.seed, path: result.counterexamplePath ?? undefined, mutation: described, reason: reasons.get(described) ?? String(result.errorInstance ?? 'the property failed'), record },
    };
  } finally {
    setup.dispose();
  }
}

/** The failure as lines a person can reproduce it from. */
export function failureText(outcome: FuzzOutcome): string {
  const failure = outcome.failure;
  if (!failure) return `${outcome.harness}: ${outcome.runs} mutations, no failure`;
  return [
    `${outcome.harness}: FAILED after ${outcome.runs} mutations`,
    `  reason: ${failure.reason}`,
    `  mutation (least): ${failure.mutation}`,
    `  of the valid record: ${failure.record}`,
    `  reproduce: npm run fuzz -- --harness ${outcome.harness} --seed ${failure.seed}${failure.path ? ` --path ${failure.path}` : ''}`,
  ].join('\n');
}
