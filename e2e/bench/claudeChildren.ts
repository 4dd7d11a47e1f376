/**
 * Benchmark of the Claude reader's subagent folder while a foreground Agent call is running and not located yet
 * (rule 11): a census after a new subagent file and sidecar appear, and a census where nothing moved, with many
 * earlier subagent files in the folder. Files go to a temp folder deleted afterwards.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SeatAddress } from '../../shared/schemas';
import { createClaudeReader } from '../../main/sources/readers/claude/reader';
import { agentCall, assistantLine, isoAt, userLine } from '../../main/dev/testing/claudeJournal';
import { median } from './table';

const SESSION = 'benchkid-0000-4000-8000-000000000000';
/** Subagent files already in the folder (each with its sidecar). */
const FILES_IN_FOLDER = 2000;
/** Censuses measured of each kind. */
const SAMPLES = 40;

/** Runs the subagent folder benchmark and prints plain lines through `log`; returns the two medians (ms). */
export async function benchClaudeChildren(log: (line: string) => void): Promise<{ newFileMs: number; quietMs: number }> {
  const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-bench-claude-children-'));
  try {
    const folder = path.join(home, 'projects', '-bench-work');
    const subagents = path.join(folder, SESSION, 'subagents');
    await mkdir(subagents, { recursive: true });
    const journal = path.join(folder, `${SESSION}.jsonl`);
    const context = { sessionId: SESSION, at: isoAt(0) };
    // A running foreground call whose child never says who it is: it stays unlocated the whole time.
    await writeFile(journal, `${userLine(context, 'Look around.')}\n${assistantLine(context, 'msg_1', [agentCall('toolu_running', 'Explore the tree')])}\n`);
    const writeChild = async (index: number): Promise<void> => {
      const id = `a${index.toString(16).padStart(16, '0')}`;
      const head = JSON.stringify({ type: 'user', agentId: id, sessionId: SESSION, timestamp: isoAt(index), message: { role: 'user', content: 'Go.' } });
      await writeFile(path.join(subagents, `agent-${id}.jsonl`), `${head}\n`);
      await writeFile(path.join(subagents, `agent-${id}.meta.json`), JSON.stringify({ agentType: 'Explore', description: `Task ${index}`, toolUseId: `toolu_other_${index}` }));
    };
    for (let index = 0; index < FILES_IN_FOLDER; index++) await writeChild(index);
    const seat: SeatAddress = { harness: 'claude', home, sessionId: SESSION, cwd: null, path: journal };
    const reader = createClaudeReader({ home });
    await reader.project(seat);

    const newFile: number[] = [];
    const quiet: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      await writeChild(FILES_IN_FOLDER + sample);
      let started = performance.now();
      await reader.project(seat);
      newFile.push(performance.now() - started);
      started = performance.now();
      await reader.project(seat);
      quiet.push(performance.now() - started);
    }
    const figures = { newFileMs: median(newFile), quietMs: median(quiet) };
    log(`claude: census with a call unlocated, ${FILES_IN_FOLDER} subagent files: after a new file ${figures.newFileMs.toFixed(2)} ms, nothing moved ${figures.quietMs.toFixed(3)} ms (medians of ${SAMPLES})`);
    return figures;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
