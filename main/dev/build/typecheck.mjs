#!/usr/bin/env node
// Typechecks the three programs (main, page, e2e) at once instead of one after another: each `tsc` is one thread, so
// on two cores the three finish in about the time of the two longest. Each program's output is printed whole when it
// ends, under its name; the exit code is 1 when any program has errors.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..', '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const programs = ['tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.e2e.json'];

const results = await Promise.all(
  programs.map(
    (config) =>
      new Promise((done) => {
        const started = Date.now();
        const child = spawn(process.execPath, [tsc, '-p', config, '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', (error) => (output += `${error.message}\n`));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const line = `typecheck ${config}: ${code === 0 ? 'ok' : signal ? `stopped by ${signal}` : 'errors'} (${seconds} s)`;
          console.log(output ? `${output.trimEnd()}\n${line}` : line);
          done({ config, code: code ?? 1 });
        });
      }),
  ),
);
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
