/** Vitest global setup: brings out/main up to date once before the suites that run the built CLI as a child. */
import { ensureBuilt } from '../../edges/cli/freshBuild.mjs';

/** Rebuilds out/main when a source changed (saying so), and fails the run when it does not build. */
export function setup(): void {
  const built = ensureBuilt();
  if (!built.ok) throw new Error(built.reason);
}
