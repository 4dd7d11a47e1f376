import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { agentCalls, AGENT_ID, readJournal, type CallRecord } from '../testing/demoJournalShape';
import { startDemo, type DemoFleet } from './simulator';

const homes: string[] = [];
const fleets: DemoFleet[] = [];
afterEach(async () => {
  await Promise.all(fleets.splice(0).map((fleet) => fleet.stop()));
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function tempHome(): string {
  const home = mkdtempSync(path.join(tmpdir(), 'pixelfleet-demo-'));
  homes.push(home);
  return home;
}

/** A clock the test moves: one second per step, so timestamps tell steps apart. */
function manualClock(startMs = Date.UTC(2026, 3, 1, 9)) {
  let nowMs = startMs;
  return { now: () => nowMs, advance: () => (nowMs += 1000) };
}

async function runSteps(options: { home: string; steps: number; seed?: number; agents?: number; startMs?: number }) {
  const clock = manualClock(options.startMs);
  const fleet = await startDemo({ home: options.home, seed: options.seed ?? 11, agents: options.agents, speed: 0, now: clock.now });
  fleets.push(fleet);
  for (let step = 0; step < options.steps; step += 1) {
    clock.advance();
    await fleet.step();
  }
  return { fleet, endMs: clock.now() };
}

function childPath(fleet: DemoFleet, sessionIndex: number, agentId: string): string {
  const session = fleet.sessions[sessionIndex];
  return path.join(path.dirname(session.path), session.sessionId, 'subagents', `agent-${agentId}.jsonl`);
}

function agentIdOf(call: CallRecord): string | undefined {
  const result = call.result?.toolUseResult as { agentId?: string } | undefined;
  return result?.agentId ?? call.notification?.taskId;
}

describe('startDemo', () => {
  it('writes every line in the documented shape and ends every Agent call with a result or a notification', async () => {
    const { fleet, endMs } = await runSteps({ home: tempHome(), steps: 60 });
    const seen = { syncCompleted: 0, syncFailed: 0, notified: 0, parallelGroups: 0 };
    fleet.sessions.forEach((session, index) => {
      const lines = readJournal(session.path);
      for (const line of lines) {
        expect(line).toMatchObject({ sessionId: session.sessionId, cwd: session.cwd, isSidechain: false });
        expect(line.agentId).toBeUndefined();
      }
      const calls = agentCalls(lines);
      const perMessage = new Map<string, number>();
      for (const call of calls) perMessage.set(call.messageId, (perMessage.get(call.messageId) ?? 0) + 1);
      seen.parallelGroups += [...perMessage.values()].filter((count) => count > 1).length;
      for (const call of calls) {
        expect(call.input).toMatchObject({ description: expect.any(String), prompt: expect.any(String) });
        expect(['Explore', 'Plan', 'general-purpose', 'code-reviewer', 'test-runner']).toContain(call.input.subagent_type);
        expect((call.input.description as string).length).toBeLessThanOrEqual(40);
        const result = call.result?.toolUseResult as { status?: string; agentId?: string } | string | undefined;
        if (call.input.run_in_background === true) {
          expect(result).toMatchObject({ status: 'async_launched', agentId: expect.stringMatching(AGENT_ID) });
          if (call.notification) {
            expect(call.notification.taskId).toBe((result as { agentId: string }).agentId);
            expect(['completed', 'failed', 'killed']).toContain(call.notification.status);
            seen.notified += 1;
          }
        } else if (call.result?.isError) {
          expect(typeof result).toBe('string');
          seen.syncFailed += 1;
        } else if (call.result) {
          expect(result).toMatchObject({ status: 'completed', agentId: expect.stringMatching(AGENT_ID) });
          seen.syncCompleted += 1;
        }
        const ended = call.input.run_in_background === true ? call.notification !== undefined : call.result !== undefined;
        // A call may still be open only if it started within the last 30 steps (children finish within ~20).
        if (!ended) expect(Date.parse(call.at)).toBeGreaterThan(endMs - 30_000);

        const agentId = agentIdOf(call);
        if (agentId === undefined) continue;
        const childLines = readJournal(childPath(fleet, index, agentId));
        expect(childLines[0]).toMatchObject({ type: 'user', parentUuid: null, message: { content: call.input.prompt } });
        for (const line of childLines) expect(line).toMatchObject({ agentId, isSidechain: true, sessionId: session.sessionId });
        const sidecar = JSON.parse(readFileSync(childPath(fleet, index, agentId).replace(/\.jsonl$/, '.meta.json'), 'utf8'));
        expect(sidecar).toEqual({ agentType: call.input.subagent_type, description: call.input.description, toolUseId: call.toolUseId });
      }
    });
    expect(seen.syncCompleted).toBeGreaterThan(0);
    expect(seen.syncFailed).toBeGreaterThan(0);
    expect(seen.notified).toBeGreaterThan(0);
    expect(seen.parallelGroups).toBeGreaterThan(0);
  });

  it('mirrors some running foreground helpers with progress lines naming their call and agent id, before the call ends', async () => {
    const { fleet } = await runSteps({ home: tempHome(), steps: 60 });
    let mirrored = 0;
    fleet.sessions.forEach((session, index) => {
      const lines = readJournal(session.path);
      const calls = new Map(agentCalls(lines).map((call) => [call.toolUseId, call]));
      lines.forEach((line, position) => {
        if (line.type !== 'progress') return;
        const call = calls.get(line.parentToolUseID);
        expect(call, 'a progress line names an Agent call of this journal').toBeDefined();
        expect(call!.input.run_in_background).toBeUndefined();
        // The locator's child file exists and is that call's child.
        const childLines = readJournal(childPath(fleet, index, line.data.agentId));
        expect(childLines[0]).toMatchObject({ message: { content: call!.input.prompt } });
        // Progress lines appear only while the call runs: before its result line.
        const resultAt = lines.findIndex((other) => other.type === 'user' && Array.isArray(other.message.content) && 'tool_use_id' in other.message.content[0] && other.message.content[0].tool_use_id === call!.toolUseId);
        if (resultAt !== -1) expect(position).toBeLessThan(resultAt);
        mirrored += 1;
      });
    });
    expect(mirrored).toBeGreaterThan(0);
  });

  it('lays journals out under the escaped working folder and suggests a spread of roles', async () => {
    const home = tempHome();
    const { fleet } = await runSteps({ home, steps: 1, agents: 7 });
    expect(fleet.claudeHome).toBe(path.join(home, 'claude'));
    for (const session of fleet.sessions) {
      expect(session.cwd).toMatch(/^\/home\/demo\/src\/[a-z0-9-]+$/);
      const folder = session.cwd.replace(/[^A-Za-z0-9]/g, '-');
      expect(session.path).toBe(path.join(fleet.claudeHome, 'projects', folder, `${session.sessionId}.jsonl`));
      expect(statSync(session.path).size).toBeGreaterThan(0);
    }
    expect(new Set(fleet.sessions.map((session) => session.sessionId)).size).toBe(7);
    expect(new Set(fleet.sessions.map((session) => session.suggestedName)).size).toBe(7);
    const roles = fleet.sessions.map((session) => session.suggestedRole);
    expect(roles).toEqual(expect.arrayContaining(['planner', 'builder', 'tester', 'reviewer', 'Sound Designer', null]));
  });

  it('writes a Markdown backlog whose front matter carries labels, title and status', async () => {
    const { fleet } = await runSteps({ home: tempHome(), steps: 0 });
    const files = readdirSync(fleet.backlogDir).filter((name) => name.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(files.length).toBeLessThanOrEqual(12);
    const labels = new Set<string>();
    for (const name of files) {
      const text = readFileSync(path.join(fleet.backlogDir, name), 'utf8');
      const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
      expect(match, name).not.toBeNull();
      const front = parseYaml(match![1]) as { labels: unknown; title: unknown; status: unknown };
      expect(Array.isArray(front.labels) && front.labels.length > 0, name).toBe(true);
      expect(typeof front.title).toBe('string');
      expect(typeof front.status).toBe('string');
      for (const label of front.labels as string[]) labels.add(label);
    }
    expect([...labels]).toEqual(expect.arrayContaining(['planner', 'builder', 'tester', 'reviewer', 'Sound Designer']));
  });

  it('writes the same files for the same seed and different ones for another seed', async () => {
    const contents = async (seed: number) => {
      const { fleet } = await runSteps({ home: tempHome(), steps: 12, seed, agents: 3 });
      return fleet.sessions.map((session) => readFileSync(session.path, 'utf8'));
    };
    const first = await contents(5);
    expect(await contents(5)).toEqual(first);
    expect(await contents(6)).not.toEqual(first);
  });

  it('continues the same sessions after a restart, closing calls the previous run left open', async () => {
    const home = tempHome();
    const before = await runSteps({ home, steps: 15, seed: 21 });
    await before.fleet.stop();
    const ended = (call: CallRecord) => (call.input.run_in_background === true ? call.notification !== undefined : call.result !== undefined);
    const leftOpen = before.fleet.sessions.flatMap((session) => agentCalls(readJournal(session.path)).filter((call) => !ended(call)));
    expect(leftOpen.length).toBeGreaterThan(0);

    const after = await runSteps({ home, steps: 1, seed: 21, startMs: before.endMs + 60_000 });
    expect(after.fleet.sessions.map((session) => session.sessionId)).toEqual(before.fleet.sessions.map((session) => session.sessionId));
    const calls = new Map(after.fleet.sessions.flatMap((session) => agentCalls(readJournal(session.path))).map((call) => [call.toolUseId, call]));
    for (const open of leftOpen) {
      const closed = calls.get(open.toolUseId)!;
      if (open.input.run_in_background === true) expect(closed.notification?.status).toBe('killed');
      else expect(closed.result?.isError).toBe(true);
    }
    for (const session of after.fleet.sessions) {
      const lines = readJournal(session.path);
      expect(new Set(lines.map((line) => line.uuid)).size).toBe(lines.length);
      const times = lines.map((line) => Date.parse(line.timestamp));
      expect(times).toEqual([...times].sort((left, right) => left - right));
    }
  });

  it('appends on its own timers and stops appending after stop()', async () => {
    const home = tempHome();
    const fleet = await startDemo({ home, agents: 2, seed: 3, speed: 40 });
    fleets.push(fleet);
    const sizes = () => fleet.sessions.map((session) => statSync(session.path).size);
    const start = sizes();
    await vi.waitFor(() => expect(sizes().every((size, index) => size > start[index])).toBe(true), { timeout: 10_000, interval: 50 });
    await fleet.stop();
    const stopped = sizes();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sizes()).toEqual(stopped);
  });

  it('refuses bad options with a clear error and writes nothing', async () => {
    await expect(startDemo({ home: 'relative/home' })).rejects.toThrow(/absolute path/);
    const home = tempHome();
    await expect(startDemo({ home, agents: 0 })).rejects.toThrow(/agents must be an integer/);
    await expect(startDemo({ home, speed: -1 })).rejects.toThrow(/speed must be 0 or more/);
    expect(existsSync(path.join(home, 'claude'))).toBe(false);
  });
});
