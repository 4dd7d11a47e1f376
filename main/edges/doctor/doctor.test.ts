// `pixelfleet doctor` end to end through the CLI entry, over real files: the demo's own homes say ok for all three
// harnesses (exit 0); homes holding future-format fixtures say drift and name the unknown kinds (exit 1); a store
// that cannot be read says unreadable and why (exit 2). Each harness's fixtures sit beside its reader's tests.
import Database from 'better-sqlite3';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { prepareDemo } from '../../dev/demo/demoSetup';
import type { DoctorReport } from './report';

const READERS = join(import.meta.dirname, '..', '..', 'sources', 'readers');
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pixelfleet-doctor-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function doctor(env: NodeJS.ProcessEnv): Promise<{ code: number; report: DoctorReport; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['doctor', '--json'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, report: JSON.parse(stdout) as DoctorReport, stderr };
}

/** Harness homes holding one future-format session each. */
async function futureHomes(): Promise<NodeJS.ProcessEnv> {
  const claudeFolder = join(root, 'claude', 'projects', '-work-app');
  await mkdir(claudeFolder, { recursive: true });
  await copyFile(join(READERS, 'claude/fixtures/drift-future-2.3.0.jsonl'), join(claudeFolder, 'f0f0f0f0-2222-4333-8444-555555555555.jsonl'));
  const codexFolder = join(root, 'codex', 'sessions', '2027', '03', '01');
  await mkdir(codexFolder, { recursive: true });
  await copyFile(join(READERS, 'codex/fixtures/drift/future-0.200.0.jsonl'), join(codexFolder, 'rollout-2027-03-01T10-00-00-019e0000-0000-7000-8000-0000000000f1.jsonl'));
  await mkdir(join(root, 'data', 'opencode'), { recursive: true });
  const db = new Database(join(root, 'data', 'opencode', 'opencode.db'));
  db.exec(await readFile(join(READERS, 'opencode/fixtures/drift-future-1.20.0.sql'), 'utf8'));
  db.close();
  return { HOME: root, PIXELFLEET_HOME: join(root, 'app'), CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex'), XDG_DATA_HOME: join(root, 'data') };
}

describe('pixelfleet doctor', () => {
  it('says ok for all three harnesses over the demo home, with the versions the demo writes (exit 0)', async () => {
    const home = join(root, 'app');
    const demo = await prepareDemo({ home, agents: 6 });
    await demo.stop();
    const { code, report } = await doctor({ HOME: root, PIXELFLEET_HOME: home });
    expect(report.demo).toBe(true);
    expect(report.harnesses.map((harness) => [harness.harness, harness.verdict])).toEqual([['claude', 'ok'], ['codex', 'ok'], ['opencode', 'ok']]);
    for (const harness of report.harnesses) {
      expect(harness.seats).toBeGreaterThan(0);
      expect(harness.versions.every((entry) => entry.version !== null)).toBe(true);
    }
    expect(code).toBe(0);
  }, 60_000);

  it('says drift over future-format sessions and names the unknown kinds with the version they came from (exit 1)', async () => {
    const { code, report } = await doctor(await futureHomes());
    expect(code).toBe(1);
    expect(report.verdict).toBe('drift');
    const byHarness = Object.fromEntries(report.harnesses.map((harness) => [harness.harness, harness]));
    expect(byHarness.claude.verdict).toBe('drift');
    expect(byHarness.claude.source).toBe('sample');
    expect(byHarness.claude.versions).toEqual([{ version: '2.3.0', seats: 1 }]);
    expect(byHarness.claude.unknownKinds.map((kind) => kind.name)).toEqual(expect.arrayContaining(['agent-handoff', 'block:tool_reference', 'checkpoint-marker']));
    expect(byHarness.claude.unknownKinds.every((kind) => kind.outside && kind.version === '2.3.0')).toBe(true);
    expect(byHarness.claude.unknownFields.map((field) => field.name)).toEqual(expect.arrayContaining(['session_id', 'ts']));
    expect(byHarness.codex.verdict).toBe('drift');
    expect(byHarness.codex.unknownKinds.map((kind) => kind.name)).toEqual(expect.arrayContaining(['world_state', 'response_item.agent_handoff']));
    expect(byHarness.opencode.verdict).toBe('drift');
    expect(byHarness.opencode.unknownKinds.map((kind) => kind.name).sort()).toEqual(['message.system', 'part.delegation']);
  });

  it('says unreadable, naming the store and why, when a store cannot be read (exit 2)', async () => {
    const env = await futureHomes();
    const broken = join(root, 'broken.db');
    await writeFile(broken, 'this is not a database, only text that fills a page of bytes. '.repeat(80));
    const { code, report } = await doctor({ ...env, OPENCODE_DB: broken });
    expect(code).toBe(2);
    const opencode = report.harnesses.find((harness) => harness.harness === 'opencode')!;
    expect(opencode.verdict).toBe('unreadable');
    expect(opencode.unreadable[0].what).toContain('broken.db');
    expect(opencode.unreadable[0].reason.length).toBeGreaterThan(0);
    expect(report.verdict).toBe('unreadable');
  });

  it('reads the opened seats of personas.json when there are some, and lists one that no longer resolves without reading it', async () => {
    const env = await futureHomes();
    await mkdir(env.PIXELFLEET_HOME!, { recursive: true });
    const seat = { harness: 'codex', home: '/elsewhere', sessionId: '019e0000-0000-7000-8000-0000000000ff', path: '/elsewhere/x.jsonl' };
    await writeFile(join(env.PIXELFLEET_HOME!, 'personas.json'), JSON.stringify({ schemaVersion: 2, revision: 1, personas: [{ id: 'p1', name: 'Ada', seat }] }));
    const { report } = await doctor(env);
    const codex = report.harnesses.find((harness) => harness.harness === 'codex')!;
    expect(codex.source).toBe('seats');
    expect(codex.seats).toBe(0);
    expect(codex.missing).toEqual([{ what: 'codex:019e0000-0000-7000-8000-0000000000ff', reason: 'no longer resolves under the harness homes' }]);
  });
});
