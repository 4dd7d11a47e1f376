#!/usr/bin/env node
// The pixelfleet command: runs the TypeScript CLI from this checkout, no separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./index.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
