#!/usr/bin/env -S node --max-semi-space-size=4
// The pixelfleet command: runs the built CLI (out/main/cli.js), rebuilding it first when a source changed since.
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './freshBuild.mjs';

const built = ensureBuilt();
if (!built.ok) {
  console.error(`pixelfleet: ${built.reason}`);
  process.exit(1);
}
const { main } = await import(pathToFileURL(built.entry).href);
process.exitCode = await main(process.argv.slice(2));
