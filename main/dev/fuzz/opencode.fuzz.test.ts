// The fixed-seed fuzz slice for opencode records (issue 36; the property is in ./property.ts, `npm run fuzz` runs more).
import { describe } from 'vitest';
import { sliceTest } from './slice';

describe('fuzzed opencode records (fixed seed)', () => sliceTest('opencode'));
