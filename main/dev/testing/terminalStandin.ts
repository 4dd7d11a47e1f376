/**
 * A stand-in Claude Code for terminal tests (issue 39): a small program that runs in a real tmux pane, writes a
 * journal in Claude Code's format, asks a question (a pending AskUserQuestion, so the world shows it needing the
 * owner) and reads the answer from its terminal, keystroke by keystroke, in raw mode as the real TUI does. Enter
 * records the typed line as the question's tool result, exactly as typed. Every byte it receives is also appended to
 * `standin-keys.jsonl` in its Claude home, so tests can check which keys a button pressed. A file `standin-hold` in
 * that home holds each answer back from the journal until a file `standin-release` appears.
 *
 * Started with `--session-id <id>` or `--resume <id>` it uses that session; without, it makes one up and writes Claude
 * Code's runtime registry `<home>/sessions/<pid>.json` ({ pid, sessionId, cwd, startedAt }), as an adopted pane would.
 * Only Node's own modules are used, so e2e specs can install it too.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The stand-in's program text (a Node script run through its shebang). */
export const QUESTION_STANDIN = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const home = process.env.CLAUDE_CONFIG_DIR;
const args = process.argv.slice(2);
if (args[0] === '--version') { process.stdout.write('2.1.114 (Claude Code)\\n'); process.exit(0); }
const flag = (name) => { const at = args.indexOf(name); return at >= 0 ? args[at + 1] : undefined; };
const named = flag('--session-id') || flag('--resume');
const id = named || crypto.randomUUID();
const cwd = process.cwd();
const startedAt = Date.now();
if (!named) {
  fs.mkdirSync(path.join(home, 'sessions'), { recursive: true });
  fs.writeFileSync(path.join(home, 'sessions', process.pid + '.json'), JSON.stringify({ pid: process.pid, sessionId: id, cwd, startedAt }));
}
const folder = path.join(home, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
fs.mkdirSync(folder, { recursive: true });
const journal = path.join(folder, id + '.jsonl');
let parent = null;
const line = (fields) => {
  const uuid = crypto.randomUUID();
  fs.appendFileSync(journal, JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.114', uuid, timestamp: new Date().toISOString(), ...fields }) + '\\n');
  parent = uuid;
};
line({ type: 'user', message: { role: 'user', content: 'Make the button.' } });
const ask = () => line({ type: 'assistant', message: { id: 'msg_' + crypto.randomUUID().slice(0, 8), type: 'message', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: 'toolu_ask_' + asked, name: 'AskUserQuestion', input: { questions: [{ question: 'Which colour should the button be?', header: 'Colour', options: [], multiSelect: false }] } }], stop_reason: null } });
let asked = 1;
ask();
process.stdout.write('Which colour should the button be?\\r\\n> ');
if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
let typed = '';
process.stdin.on('data', (chunk) => {
  fs.appendFileSync(path.join(home, 'standin-keys.jsonl'), JSON.stringify(chunk) + '\\n');
  for (const char of chunk) {
    if (char === '\\r' || char === '\\n') {
      if (typed === '/exit') process.exit(0);
      const answer = typed;
      typed = '';
      process.stdout.write('\\r\\nGot it: ' + answer + '\\r\\n> ');
      const record = () => line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ask_' + asked, content: answer }] }, toolUseResult: { answers: { Colour: answer } } });
      // A file standin-hold in the home holds the answer back until standin-release appears (a test sees "sent" first).
      if (!fs.existsSync(path.join(home, 'standin-hold'))) record();
      else { const wait = setInterval(() => { if (fs.existsSync(path.join(home, 'standin-release'))) { clearInterval(wait); record(); } }, 100); }
    } else if (char === '\\x7f') {
      typed = typed.slice(0, -1);
    } else if (char === '\\x03') {
      process.stdout.write('\\r\\n(interrupt)\\r\\n> ');
    } else if (char === '\\x1b') {
      process.stdout.write('\\r\\n(escape)\\r\\n> ');
    } else if (char >= ' ') {
      typed += char;
      process.stdout.write(char);
    }
  }
});
setInterval(() => {}, 1000);
`;

/** Writes the stand-in as `<bin>/claude` (executable); returns its path. */
export function installQuestionStandin(bin: string): string {
  const file = path.join(bin, 'claude');
  writeFileSync(file, QUESTION_STANDIN);
  chmodSync(file, 0o755);
  return file;
}
