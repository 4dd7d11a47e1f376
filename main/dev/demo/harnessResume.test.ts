import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness, SeatAddress } from '../../../shared/schemas';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { createCodexReader } from '../../sources/readers/codex/reader';
import { createOpenCodeReader } from '../../sources/readers/opencode/reader';
import type { SeatReader } from '../../sources/readers/port';
import { findCodexLeftovers } from './codexResume';
import { startHarnessSeats } from './harnessSeats';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: '2026-06-01T10:00:00.000Z', type, payload });
const spawn = (callId: string, agentId: string) => [
  line('response_item', { type: 'function_call', name: 'spawn_agent', arguments: '{"message":"m"}', call_id: callId }),
  line('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ agent_id: agentId, nickname: 'Euclid' }) }),
];

describe('findCodexLeftovers', () => {
  it('finds the open turn and the children no wait, notification or close settled', () => {
    const notification = `<subagent_notification>\n${JSON.stringify({ agent_path: 'b', status: { completed: 'ok' } })}\n</subagent_notification>`;
    const tail = [
      'cut mid-line"}',
      line('event_msg', { type: 'task_started', turn_id: 'turn-1' }),
      ...spawn('c1', 'a'),
      ...spawn('c2', 'b'),
      ...spawn('c3', 'c'),
      ...spawn('c4', 'd'),
      line('response_item', { type: 'function_call', name: 'wait_agent', arguments: '{"targets":["a"]}', call_id: 'w1' }),
      line('response_item', { type: 'function_call_output', call_id: 'w1', output: JSON.stringify({ status: { a: { errored: 'x' } }, timed_out: false }) }),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: notification }] }),
      line('response_item', { type: 'function_call', name: 'close_agent', arguments: '{"target":"c"}', call_id: 'k1' }),
      line('response_item', { type: 'function_call_output', call_id: 'k1', output: '{"previous_status":"running"}' }),
      line('event_msg', { type: 'task_complete', turn_id: 'turn-1' }),
      line('event_msg', { type: 'task_started', turn_id: 'turn-2' }),
    ].join('\n');
    expect(findCodexLeftovers(tail)).toEqual({ openTurn: 'turn-2', openChildren: ['d'] });
  });
});

async function project(readers: Record<'codex' | 'opencode', SeatReader>, seats: SeatAddress[], nowMs: number) {
  const out: { harness: Harness; running: number; startedBefore: { state: string; outcome?: string }[]; activity: ReturnType<typeof evaluateActivity> }[] = [];
  for (const seat of seats) {
    const projection = await readers[seat.harness as 'codex' | 'opencode'].project(seat);
    if (!projection.ok) throw new Error(projection.reason);
    out.push({ harness: seat.harness, running: projection.subagents.running, startedBefore: projection.subagents.recent, activity: evaluateActivity(projection.activity, nowMs) });
  }
  return out;
}

describe('a restarted demo closes what its Codex and OpenCode seats left open', () => {
  it('settles every child of the previous run, aborts its open turns, and draws new ids that repeat none', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-resume-'));
    homes.push(home);
    const clock = { ms: Date.now() };
    const now = () => clock.ms;
    const options = { home, codex: 1, opencode: 1, names: ['Ada', 'Bram'], roles: ['builder', null], seed: 5, now, timers: false };
    const first = await startHarnessSeats(options);
    const readers = {
      codex: createCodexReader({ home: first.codexHome, now }),
      opencode: createOpenCodeReader({ dataDir: path.dirname(first.openCodeDb!), env: { OPENCODE_DB: first.openCodeDb! }, now }),
    };
    const seats = first.seats.map((entry) => entry.seat);
    try {
      for (let step = 0; step < 6; step += 1) {
        clock.ms += 2500;
        await first.step();
      }
      const before = await project(readers, seats, clock.ms);
      expect(before.map((seat) => seat.running > 0)).toEqual([true, true]);
      await first.stop();

      clock.ms += 10_000;
      const second = await startHarnessSeats(options);
      expect(second.seats.map((entry) => entry.seat.sessionId)).toEqual(seats.map((seat) => seat.sessionId));
      const after = await project(readers, seats, clock.ms);
      for (const seat of after) {
        expect(seat.running, `${seat.harness} running after the restart`).toBe(0);
        expect(seat.startedBefore.every((entry) => entry.state === 'ended')).toBe(true);
      }
      // The shut-down helpers show as stopped (Codex) and cancelled or aborted (OpenCode).
      expect(after[0].startedBefore.some((entry) => entry.outcome === 'stopped')).toBe(true);
      expect(after[1].startedBefore.some((entry) => entry.outcome === 'stopped' || entry.outcome === 'interrupted')).toBe(true);
      expect(after[0].activity.state === 'working' || (after[0].activity.why === 'question' || after[0].activity.why === 'approval')).toBe(false);

      for (let step = 0; step < 30; step += 1) {
        clock.ms += 2500;
        await second.step();
      }
      await second.stop();
      const files = readdirSync(path.join(first.codexHome, 'sessions'), { recursive: true }).map(String).filter((file) => file.endsWith('.jsonl'));
      const ids = files.map((file) => file.slice(-42, -6));
      expect(new Set(ids).size).toBe(ids.length);
      const again = await project(readers, seats, clock.ms);
      expect(again.every((seat) => seat.startedBefore.length > 0)).toBe(true);
    } finally {
      readers.codex.dispose();
      readers.opencode.dispose();
    }
  }, 60_000);
});
