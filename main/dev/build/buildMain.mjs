#!/usr/bin/env node
// Builds the main process and the CLI into out/main (`npm install` runs this as `prepare`; the CLI runs it when a
// source changed). Quiet unless something goes wrong.
import { resolve } from 'node:path';
import { build } from 'electron-vite';

const root = resolve(import.meta.dirname, '..', '..', '..');
process.chdir(root);
await build({ configFile: resolve(root, 'main', 'dev', 'build', 'main.config.ts'), logLevel: 'error' });
