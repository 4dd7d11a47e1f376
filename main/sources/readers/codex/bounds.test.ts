import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { headerLine, tempHomes, threadId, writeRollout } from '../../../dev/testing/codexRollout';
import { createCodexReader } from './reader';
import { CODEX_CHILDREN, CODEX_HEADER_BYTES, CODEX_HEADERS } from '../kit/bounds';

const parentId = threadId(1);
const homes = tempHomes();
afterEach(homes.removeAll);

async function parentSeat(): Promise<SeatAddress> {
  const home = await homes.make();
  const path = await writeRollout(home, '2026/04/02', '2026-04-02T11-00-00', parentId, [headerLine({ id: parentId, timestamp: '2026-04-02T11:00:00.000Z' })]);
  return { harness: 'codex', home, sessionId: parentId, path };
}

function child(n: number, timestamp: string, padding = 0): string[] {
  return [headerLine({ id: threadId(n), timestamp, parent: parentId, padding })];
}

describe('discovery bounds', () => {
  it(`reads at most the ${CODEX_HEADERS} newest rollouts, newest date folders first`, { timeout: 60_000 }, async () => {
    const seat = await parentSeat();
    await writeRollout(seat.home, '2026/04/01', '2026-04-01T23-00-00', threadId(2), child(2, '2026-04-01T23:00:00.000Z'));
    await writeRollout(seat.home, '2026/04/02', '2026-04-02T12-00-00', threadId(3), child(3, '2026-04-02T12:00:00.000Z'));
    const fillers = Array.from({ length: CODEX_HEADERS }, (_, index) => {
      const id = threadId(1000 + index);
      return writeRollout(seat.home, '2026/04/02', '2026-04-02T00-00-00', id, [headerLine({ id, timestamp: '2026-04-02T00:00:00.000Z' })]);
    });
    await Promise.all(fillers);
    const projection = await createCodexReader({ home: seat.home, now: () => 0 }).project(seat);
    // The old child sits in the older folder, behind 4,096 newer files: it is beyond the bound.
    expect(projection.ok && projection.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(3)]);
  });

  it('skips and counts a first line over 64 KiB, and accepts a long one under it', async () => {
    const seat = await parentSeat();
    await writeRollout(seat.home, '2026/04/02', '2026-04-02T11-00-01', threadId(2), child(2, '2026-04-02T11:00:01.000Z', CODEX_HEADER_BYTES + 10));
    await writeRollout(seat.home, '2026/04/02', '2026-04-02T11-00-02', threadId(3), child(3, '2026-04-02T11:00:02.000Z', CODEX_HEADER_BYTES - 2000));
    const projection = await createCodexReader({ home: seat.home, now: () => 0 }).project(seat);
    expect(projection.ok && projection.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(3)]);
    expect(projection.ok && projection.read.skippedLines).toBe(1);
  });

  it(`keeps at most ${CODEX_CHILDREN} children, the most recent`, async () => {
    const seat = await parentSeat();
    const total = CODEX_CHILDREN + 6;
    await Promise.all(
      Array.from({ length: total }, (_, index) => {
        const second = String(index % 60).padStart(2, '0');
        const minute = String(Math.floor(index / 60)).padStart(2, '0');
        return writeRollout(seat.home, '2026/04/02', `2026-04-02T11-${minute}-${second}`, threadId(2 + index), child(2 + index, `2026-04-02T11:${minute}:${second}.000Z`));
      }),
    );
    const reader = createCodexReader({ home: seat.home, now: () => 0 });
    const projection = await reader.project(seat);
    expect(projection.ok && projection.subagents.running).toBe(CODEX_CHILDREN);
    expect(projection.ok && projection.subagents.recent[0].nativeId).toBe(threadId(2 + total - 1));
    // The oldest children were not kept, so they cannot be replayed.
    expect(await reader.replay(seat, threadId(2))).toMatchObject({ status: 'refused' });
    expect(await reader.replay(seat, threadId(2 + total - 1))).toMatchObject({ status: 'ok' });
  });
});
