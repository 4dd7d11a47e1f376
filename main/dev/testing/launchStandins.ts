/**
 * Test support for hire and launch: a private tmux server per test file, and stand-in `claude`, `codex` and
 * `opencode` executables on a temporary PATH. Each records its argv and cwd, then writes what the real harness writes
 * at the place it writes it: a Claude Code journal under CLAUDE_CONFIG_DIR/projects, a Codex rollout under
 * CODEX_HOME/sessions/YYYY/MM/DD with a `session_meta` carrying the cwd, rows in a real OpenCode SQLite database under
 * XDG_DATA_HOME/opencode. A file `standin-silent` in the harness's home makes it write nothing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../edges/cli/index';
import { findOnPath } from '../../core/launch/tmux';

/** tmux's path, or null (the tests then skip with a printed reason). */
export const tmux = findOnPath('tmux', process.env);

/** Keeps the TUI stand-in alive until it reads its exit line. */
const WAIT_FOR_EXIT = `
process.stdin.setEncoding('utf8');
let typed = '';
process.stdin.on('data', (chunk) => {
  typed += chunk;
  if (typed.includes(EXIT)) process.exit(0);
});
setInterval(() => {}, 1000);
`;

const CLAUDE = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const home = process.env.CLAUDE_CONFIG_DIR;
const args = process.argv.slice(2);
if (args[0] === '--version') {
  const file = path.join(home, 'standin-version');
  process.stdout.write(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '2.1.114 (Claude Code)\\n');
  process.exit(0);
}
fs.writeFileSync(path.join(home, 'standin-argv.json'), JSON.stringify({ argv: args, cwd: process.cwd() }));
const id = args[args.indexOf('--session-id') + 1];
const folder = path.join(home, 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-'));
fs.mkdirSync(folder, { recursive: true });
const lines = fs.readFileSync(path.join(home, 'standin-lines.jsonl'), 'utf8').split('SESSION').join(id);
fs.appendFileSync(path.join(folder, id + '.jsonl'), lines);
const EXIT = '/exit';
${WAIT_FOR_EXIT}`;

const CODEX = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const home = process.env.CODEX_HOME;
const args = process.argv.slice(2);
fs.mkdirSync(home, { recursive: true });
fs.writeFileSync(path.join(home, 'standin-argv.json'), JSON.stringify({ argv: args, cwd: process.cwd() }));
if (!fs.existsSync(path.join(home, 'standin-silent'))) {
  const cwd = args[args.indexOf('--cd') + 1];
  const now = new Date();
  const two = (n) => String(n).padStart(2, '0');
  const day = [String(now.getFullYear()), two(now.getMonth() + 1), two(now.getDate())];
  const stamp = day.join('-') + 'T' + [two(now.getHours()), two(now.getMinutes()), two(now.getSeconds())].join('-');
  const id = crypto.randomUUID();
  const folder = path.join(home, 'sessions', ...day);
  fs.mkdirSync(folder, { recursive: true });
  const at = now.toISOString();
  const meta = { timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd, originator: 'codex_cli_rs', cli_version: '0.120.0', source: 'cli' } };
  const turn = { timestamp: at, type: 'turn_context', payload: { cwd, approval_policy: 'on-request', model: 'gpt-5' } };
  fs.writeFileSync(path.join(folder, 'rollout-' + stamp + '-' + id + '.jsonl'), JSON.stringify(meta) + '\\n' + JSON.stringify(turn) + '\\n');
}
const EXIT = '/quit';
${WAIT_FOR_EXIT}`;

function opencodeScript(sqlite: string): string {
  return `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const Database = require(${JSON.stringify(sqlite)});
const data = path.join(process.env.XDG_DATA_HOME, 'opencode');
const args = process.argv.slice(2);
fs.mkdirSync(data, { recursive: true });
fs.writeFileSync(path.join(data, 'standin-argv.json'), JSON.stringify({ argv: args, cwd: process.cwd() }));
if (!fs.existsSync(path.join(data, 'standin-silent'))) {
  const db = new Database(path.join(data, 'opencode.db'));
  db.pragma('journal_mode = WAL');
  db.exec(\`CREATE TABLE IF NOT EXISTS project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL,
      title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER,
      summary_diffs TEXT, revert TEXT, permission TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER,
      time_archived INTEGER);
    CREATE TABLE IF NOT EXISTS message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS session_parent_idx ON session (parent_id);
    CREATE INDEX IF NOT EXISTS message_session_time_created_id_idx ON message (session_id, time_created, id);
    CREATE INDEX IF NOT EXISTS part_message_id_id_idx ON part (message_id, id);\`);
  const now = Date.now();
  const base62 = (n) => Array.from({ length: n }, () => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 62)]).join('');
  const hex = (value) => (value & 0xffffffffffffn).toString(16).padStart(12, '0');
  const stamp = BigInt(now) * 4096n;
  const session = 'ses_' + hex(~stamp) + base62(14);
  const message = 'msg_' + hex(stamp) + base62(14);
  const part = 'prt_' + hex(stamp + 1n) + base62(14);
  const cwd = args[0];
  db.prepare('INSERT OR IGNORE INTO project VALUES (?, ?, ?, ?)').run('global', '/', now, now);
  db.prepare("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', NULL, 'quiet-harbor', ?, 'New session', '1.15.13', ?, ?)").run(session, cwd, now, now);
  db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(message, session, now, now, JSON.stringify({ role: 'user', time: { created: now }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } }));
  db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(part, message, session, now, now, JSON.stringify({ type: 'text', text: 'started' }));
  db.close();
}
const EXIT = '/exit';
${WAIT_FOR_EXIT}`;
}

/** A private tmux server and a root folder for one test file; `dispose` kills the server and removes the folder. */
export function launchFixture(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const socket = `pf-test-${process.pid}-${Date.now().toString(36)}`;
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');

  /** A case folder with every stand-in on PATH and each harness home inside it. */
  function setup(lines = '') {
    const dir = mkdtempSync(path.join(root, 'case-'));
    const bin = path.join(dir, 'bin');
    const claudeHome = path.join(dir, 'claude');
    const codexHome = path.join(dir, 'codex');
    const dataHome = path.join(dir, 'data');
    for (const folder of [bin, claudeHome, codexHome, path.join(dataHome, 'opencode')]) mkdirSync(folder, { recursive: true });
    for (const [name, text] of [['claude', CLAUDE], ['codex', CODEX], ['opencode', opencodeScript(sqlite)]] as const) {
      writeFileSync(path.join(bin, name), text);
      chmodSync(path.join(bin, name), 0o755);
    }
    writeFileSync(path.join(claudeHome, 'standin-lines.jsonl'), lines);
    const env: NodeJS.ProcessEnv = {
      HOME: dir,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      CLAUDE_CONFIG_DIR: claudeHome,
      CODEX_HOME: codexHome,
      XDG_DATA_HOME: dataHome,
      PIXELFLEET_HOME: path.join(dir, 'home'),
      PIXELFLEET_TMUX_SOCKET: socket,
    };
    const homes = { claude: claudeHome, codex: codexHome, opencode: path.join(dataHome, 'opencode') };
    return { dir, env, claudeHome, homes };
  }

  /** The argv and cwd a stand-in recorded, once it has. */
  async function recorded(home: string): Promise<{ argv: string[]; cwd: string }> {
    return until(() => {
      const file = path.join(home, 'standin-argv.json');
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    });
  }

  function tmuxHas(session: string): boolean {
    try {
      execFileSync(tmux!, ['-L', socket, 'has-session', '-t', `=${session}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  function dispose() {
    if (tmux) {
      try {
        execFileSync(tmux, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
      } catch {
        // The server is already gone when every session ended.
      }
    }
    rmSync(root, { recursive: true, force: true });
  }

  return { root, socket, setup, recorded, tmuxHas, dispose };
}

/** Runs the CLI in-process and collects its output. */
export async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}

/** Polls until `read` gives a value, or throws after `ms`. */
export async function until<T>(read: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
