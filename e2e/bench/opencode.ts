/** OpenCode section of `npm run bench`: one seat read over a store of 100,000 parts (figures, not assertions). */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenCodeReader } from '../../main/sources/readers/opencode/reader';
import { makeTempDir, MINIMAL_SCHEMA } from '../../main/dev/testing/opencodeStore';

/** Parts written into the benchmark store. */
const PARTS = 100_000;
/** Parts per parent message (a long agent turn with many tool calls). */
const PARTS_PER_MESSAGE = 25;

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function buildStore(path: string): { parent: string; lastCall: string } {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.exec(MINIMAL_SCHEMA);
  const insertSession = database.prepare('INSERT INTO session (id, parent_id, directory, time_created, time_updated) VALUES (?, ?, ?, ?, ?)');
  const insertMessage = database.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
  const insertPart = database.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
  const parent = 'ses_benchParent0001';
  const output = 'line of tool output\n'.repeat(100);
  let lastCall = '';
  database.transaction(() => {
    insertSession.run(parent, null, '/work/repo', 1, 1);
    let time = 1_780_000_000_000;
    for (let part = 0; part < PARTS; part += 1) {
      const messageIndex = Math.floor(part / PARTS_PER_MESSAGE);
      const messageId = `msg_${String(messageIndex).padStart(12, '0')}Bench`;
      time += 10;
      if (part % PARTS_PER_MESSAGE === 0) {
        insertMessage.run(messageId, parent, time, time, JSON.stringify({ role: 'assistant', time: { created: time, completed: time + 5 } }));
      }
      const partId = `prt_${String(part).padStart(12, '0')}Bench`;
      let data: unknown;
      if (part % 97 === 0) {
        const child = `ses_benchChild${String(part).padStart(7, '0')}`;
        insertSession.run(child, parent, '/work/repo', time, time);
        lastCall = `call_${part}`;
        data = {
          type: 'tool', tool: 'task', callID: lastCall,
          state: { status: part % 2 ? 'completed' : 'running', input: { subagent_type: 'explore', description: `Task ${part}`, prompt: 'p' },
            output: `<task id="${child}" state="completed">\n<task_result>\nDone.\n</task_result>\n</task>`, metadata: { sessionId: child }, time: { start: time, end: time + 5 } },
        };
        const childMessage = `msg_${String(messageIndex).padStart(12, '0')}Child${part}`;
        insertMessage.run(childMessage, child, time + 1, time + 1, JSON.stringify({ role: 'assistant', time: { created: time + 1, completed: time + 2 } }));
        insertPart.run(`${partId}C`, childMessage, child, time + 1, time + 1, JSON.stringify({ type: 'text', text: 'Child work done.' }));
      } else if (part % 3 === 0) {
        data = { type: 'tool', tool: 'bash', callID: `bash_${part}`, state: { status: 'completed', input: { command: 'ls' }, output, time: { start: time, end: time + 1 } } };
      } else {
        data = { type: 'text', text: `Reasoned step ${part}: ${'words '.repeat(40)}` };
      }
      insertPart.run(partId, messageId, parent, time, time, JSON.stringify(data));
    }
  })();
  database.close();
  return { parent, lastCall };
}

/** Builds a temp store of 100,000 parts and prints the time and memory of one seat read (and one replay page). */
export async function benchOpenCode(log: (line: string) => void): Promise<void> {
  const temp = makeTempDir('pixelfleet-bench-opencode-');
  try {
    const home = join(temp.dir, 'opencode.db');
    const built = performance.now();
    const { parent, lastCall } = buildStore(home);
    log(`store: ${PARTS.toLocaleString('en')} parts, ${megabytes(statSync(home).size)} on disk, built in ${(performance.now() - built).toFixed(0)} ms`);
    const reader = createOpenCodeReader({ db: home });
    const seat = { harness: 'opencode' as const, home, sessionId: parent, cwd: '/work/repo', path: null };
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const projection = await reader.project(seat);
    const elapsed = performance.now() - started;
    const memory = process.memoryUsage();
    if (!projection.ok) {
      log(`seat read failed: ${projection.reason}`);
      return;
    }
    log(`one seat read: ${elapsed.toFixed(1)} ms, payload selected ${megabytes(projection.read.bytes)}, running ${projection.subagents.running}, recent ${projection.subagents.recent.length}`);
    log(`memory: RSS ${megabytes(memory.rss)} (delta ${megabytes(memory.rss - rssBefore)}), heap delta ${megabytes(memory.heapUsed - heapBefore)}`);
    // The first read of a closed WAL store creates its -wal file, so the second read still queries; the third reuses.
    for (const name of ['warm re-read', 'unchanged re-read']) {
      const again = performance.now();
      const result = await reader.project(seat);
      log(`${name}: ${(performance.now() - again).toFixed(2)} ms, payload selected ${result.ok ? megabytes(result.read.bytes) : 'n/a'}`);
    }
    const replayStarted = performance.now();
    const page = await reader.replay(seat, lastCall);
    log(`one replay page: ${(performance.now() - replayStarted).toFixed(1)} ms (${page.status})`);
    reader.dispose();
  } finally {
    temp.remove();
  }
}
