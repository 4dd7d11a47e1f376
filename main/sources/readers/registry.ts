/**
 * The harnesses this build reads, one line each. Adding a harness is its folder (with its `harness.ts`) and one line
 * here; the composition root, the fleet's names, the CLI and the auto-open rule all take it from this list.
 */
import type { Harness } from '../../../shared/schemas';
import type { HarnessHomes } from './homes';
import { claudeHarness } from './claude/harness';
import { codexHarness } from './codex/harness';
import type { HarnessDescriptor, ReaderContext } from './harness';
import { openCodeHarness } from './opencode/harness';
import type { SeatReader } from './port';

export const HARNESSES: Record<Harness, HarnessDescriptor> = {
  claude: claudeHarness,
  codex: codexHarness,
  opencode: openCodeHarness,
};

/** The descriptor of a harness. */
export function harnessOf(harness: Harness): HarnessDescriptor {
  return HARNESSES[harness];
}

/** The name the owner knows a harness by ("Claude Code"). */
export function harnessName(harness: Harness): string {
  return HARNESSES[harness].displayName;
}

/** The readers for every harness (or only those named), with the app's context when there is an app home. */
export function createReaders(homes: HarnessHomes, options: { only?: Harness[]; context?: ReaderContext } = {}): Partial<Record<Harness, SeatReader>> {
  const readers: Partial<Record<Harness, SeatReader>> = {};
  for (const descriptor of Object.values(HARNESSES)) {
    if (!options.only || options.only.includes(descriptor.id)) readers[descriptor.id] = descriptor.createReader(homes, options.context);
  }
  return readers;
}

/** The OpenCode store questions the terminal asks (acknowledgement and adoption), through the one door to the harness folders. */
export { openCodeLatestSession, openCodeUserMessageSince } from './opencode/inputRecords';
