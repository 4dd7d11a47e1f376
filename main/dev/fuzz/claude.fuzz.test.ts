// The fixed-seed fuzz slice for claude records (issue 36; the property is in ./property.ts, `npm run fuzz` runs more).
import { describe } from 'vitest';
import { sliceTest } from './slice';

describe('fuzzed claude records (fixed seed)', () => sliceTest('claude'));
