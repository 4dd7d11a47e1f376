/** Builds one reader per harness from the resolved harness homes. */
import type { Harness } from '../../shared/schemas';
import type { HarnessHomes } from '../config/paths';
import { createClaudeReader } from './claude';
import { createCodexReader } from './codex';
import { createOpenCodeReader } from './opencode';
import type { SeatReader } from './port';

/** The readers for every harness (or only those named). */
export function createReaders(homes: HarnessHomes, only?: Harness[]): Partial<Record<Harness, SeatReader>> {
  const wanted = (harness: Harness) => !only || only.includes(harness);
  const readers: Partial<Record<Harness, SeatReader>> = {};
  if (wanted('claude')) readers.claude = createClaudeReader({ home: homes.claude });
  if (wanted('codex')) readers.codex = createCodexReader({ home: homes.codex });
  if (wanted('opencode')) readers.opencode = createOpenCodeReader({ dataDir: homes.opencodeDataDir, env: { OPENCODE_DB: homes.opencodeDb } });
  return readers;
}
