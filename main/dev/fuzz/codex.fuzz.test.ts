// The fixed-seed fuzz slice for codex records (issue 36; the property is in ./property.ts, `npm run fuzz` runs more).
import { describe } from 'vitest';
import { sliceTest } from './slice';

describe('fuzzed codex records (fixed seed)', () => sliceTest('codex'));
