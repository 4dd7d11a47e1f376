// Hostile Codex homes (issue 36): FIFOs named like rollouts are never opened (discovery and header reads only take
// regular files), and ids that point at the seat itself are no subagents. Real files and real FIFOs in temp homes.
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { headerLine, tempHomes, threadId, turnContextLine, writeRollout } from '../../../dev/testing/codexRollout';
import { createCodexReader } from './reader';

const homes = tempHomes();
afterEach(homes.removeAll);

const AT = '2026-06-01T10:00:00.000Z';
const PARENT = threadId(1);

function fifo(path: string): boolean {
  try {
    execFileSync('mkfifo', [path]);
    return true;
  } catch {
    return false;
  }
}

describe('hostile Codex homes', () => {
  it('FIFOs named rollout-*.jsonl are skipped: the lobby lists the real rollout and a seat projects', async () => {
    const home = await homes.make();
    const path = await writeRollout(home, '2026/06/01', '2026-06-01T10-00-00', PARENT, [headerLine({ id: PARENT, timestamp: AT }), turnContextLine(AT)]);
    const folder = join(home, 'sessions', '2026', '06', '01');
    await mkdir(folder, { recursive: true });
    if (!fifo(join(folder, `rollout-2026-06-01T10-00-01-${threadId(7)}.jsonl`))) {
      console.log('skipped: mkfifo is not available here');
      return;
    }
    fifo(join(folder, `rollout-2026-06-01T10-00-02-${threadId(8)}.jsonl`));
    const reader = createCodexReader({ home });
    const candidates = await reader.discover({ limit: 10 });
    expect(candidates.map((candidate) => candidate.seat.sessionId)).toEqual([PARENT]);
    const seat: SeatAddress = { harness: 'codex', home, sessionId: PARENT, cwd: null, path };
    const projection = await reader.project(seat);
    expect(projection.ok).toBe(true);
    expect(await reader.resolve(threadId(7))).toBeNull();
    reader.dispose();
  });

  it('a rollout naming itself as parent is not its own subagent; a child carrying the parent id is not counted', async () => {
    const home = await homes.make();
    const path = await writeRollout(home, '2026/06/01', '2026-06-01T10-00-00', PARENT, [headerLine({ id: PARENT, timestamp: AT, parent: PARENT }), turnContextLine(AT)]);
    await writeRollout(home, '2026/06/01', '2026-06-01T10-00-05', PARENT, [headerLine({ id: PARENT, timestamp: '2026-06-01T10:00:05.000Z', parent: PARENT, nickname: 'Impostor' }), turnContextLine(AT)]);
    await writeRollout(home, '2026/06/01', '2026-06-01T10-00-09', threadId(2), [headerLine({ id: threadId(2), timestamp: '2026-06-01T10:00:09.000Z', parent: PARENT, nickname: 'Real' }), turnContextLine(AT)]);
    const reader = createCodexReader({ home });
    const projection = await reader.project({ harness: 'codex', home, sessionId: PARENT, cwd: null, path });
    reader.dispose();
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(2)]);
  });
});
