/**
 * `pixelfleet usage --blocks --all-sessions` over the usage bench's large journal (issue 41): the first run is the
 * background pass (cold), a later run reuses the pass's checkpoint (warm, goal ≤ 2 s), each through the CLI's own
 * entry point in this process, as the owner runs it.
 */
import { join } from 'node:path';
import { BlockReportSchema } from '../../shared/pace';
import { main } from '../../main/edges/cli/index';
import { median, atMost, type BenchTable } from './table';

async function blocksOnce(claudeHome: string, appHome: string): Promise<{ ms: number; blocks: number; partial: boolean }> {
  let stdout = '';
  const started = performance.now();
  const code = await main(['usage', '--blocks', '--all-sessions', '--json'], {
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
    env: { HOME: join(appHome, 'no-home'), PIXELFLEET_HOME: appHome, CLAUDE_CONFIG_DIR: claudeHome, CODEX_HOME: join(appHome, 'codex'), XDG_DATA_HOME: join(appHome, 'data'), OPENCODE_DB: join(appHome, 'none.db') },
  });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`usage --blocks exited ${code}`);
  const report = BlockReportSchema.parse(JSON.parse(stdout));
  return { ms, blocks: report.blocks.length, partial: report.partial };
}

/** Times `usage --blocks --all-sessions` cold and warm over the journals of `claudeHome` (`sizeMiB` of them). */
export async function benchBlocks(claudeHome: string, appHome: string, sizeMiB: number, log: (line: string) => void, table: BenchTable): Promise<void> {
  const cold = await blocksOnce(claudeHome, appHome);
  log(`usage --blocks --all-sessions over ${sizeMiB.toFixed(0)} MiB, cold (the pass reads every byte): ${(cold.ms / 1000).toFixed(2)} s, ${cold.blocks} blocks`);
  const warm: number[] = [];
  let last = cold;
  for (let run = 0; run < 3; run += 1) {
    last = await blocksOnce(claudeHome, appHome);
    warm.push(last.ms);
  }
  const warmMs = median(warm);
  log(`usage --blocks --all-sessions over ${sizeMiB.toFixed(0)} MiB, warm (the pass's checkpoint reused): median ${warmMs.toFixed(0)} ms, ${last.blocks} blocks`);
  table.add({ figure: `usage --blocks --all-sessions, warm, over ${sizeMiB.toFixed(0)} MiB of journals`, goal: atMost(2000), value: warmMs, unit: 'ms', also: { text: 'same blocks as cold, none partial', holds: last.blocks === cold.blocks && !last.partial } });
}
