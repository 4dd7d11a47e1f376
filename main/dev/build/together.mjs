#!/usr/bin/env node
// Runs npm scripts side by side and prints each one's output whole, under its name, when it ends: the checks before
// the tests (typecheck, lint, structure rules, the page build) are mostly one thread each, so on two cores they finish
// in about the time of the longest instead of their sum. Exit code 1 when any script fails; every script still runs
// to its end so one run reports every failure.
// Usage: node main/dev/build/together.mjs <script> [<script> …]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..', '..');
const scripts = process.argv.slice(2);
if (!scripts.length) {
  console.error('together: name the npm scripts to run, e.g. `node main/dev/build/together.mjs typecheck lint`');
  process.exit(2);
}

const npm = process.env.npm_execpath;
const started = Date.now();
const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((done) => {
        const begun = Date.now();
        // Under `npm run`, npm_execpath names npm's own CLI script: run it with this node, so no shell is involved.
        const [command, args] = npm ? [process.execPath, [npm, 'run', '-s', script]] : ['npm', ['run', '-s', script]];
        const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', (error) => (output += `${error.message}\n`));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - begun) / 1000).toFixed(1);
          const verdict = code === 0 ? 'ok' : signal ? `stopped by ${signal}` : `failed (exit ${code})`;
          console.log(`${output.trimEnd() ? `${output.trimEnd()}\n` : ''}== ${script}: ${verdict} (${seconds} s)`);
          done(code === 0);
        });
      }),
  ),
);
const failed = scripts.filter((_, index) => !results[index]);
console.log(
  `== ${scripts.length - failed.length} of ${scripts.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s` +
    (failed.length ? `; failed: ${failed.join(', ')}` : ''),
);
process.exitCode = failed.length ? 1 : 0;
