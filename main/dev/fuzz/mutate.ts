/**
 * Mutations of valid harness records for the fuzz suite (issue 36), as fast-check arbitraries: a mutation picks a
 * record and a place in it, then does one hostile thing there — numbers negative, 10^15, 1.5, NaN-like strings or
 * null; strings 1 MB, control characters or lone surrogates; objects turned into arrays or 10,000-deep nesting;
 * timestamps 1970, 9999 or garbage; the record duplicated (its ids with it) or pointed at itself; the line cut
 * mid-way, a NUL run or invalid UTF-8 bytes inside it, or a 50 MB line. fast-check shrinks a failure to the least.
 */
import fc from 'fast-check';

/** A JSON record as the harness writes it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One hostile value put in place of a node. */
export type Hostile =
  | { kind: 'number'; value: number | string | null }
  | { kind: 'string'; value: 'huge' | 'control' | 'surrogate' | 'empty' }
  | { kind: 'array' }
  | { kind: 'deep' }
  | { kind: 'time'; value: string | number };

/** What a mutation does to a record. */
export type Mutation =
  | { kind: 'value'; record: number; at: number; hostile: Hostile }
  | { kind: 'duplicate'; record: number }
  | { kind: 'self'; record: number; variant: number }
  | { kind: 'truncate'; record: number; at: number }
  | { kind: 'nul'; record: number; at: number; length: number }
  | { kind: 'utf8'; record: number; at: number }
  | { kind: 'huge-line'; record: number };

/** Bytes of the "1 MB" string mutation. */
export const HUGE_STRING_BYTES = 1024 * 1024;
/** Bytes of the "50 MB line" mutation. */
export const HUGE_LINE_BYTES = 50 * 1024 * 1024;
/** Depth of the nesting mutation. */
export const DEEP_NESTING = 10_000;
/** Marker replaced by the deep nesting once the record is serialised (building it as objects would not help). */
const DEEP_MARK = '\u0001pixelfleet-deep\u0001';

/** The hostile values; `heavy` adds the 1 MB string and the 10,000-deep nesting to the random ones. */
function hostileValues(heavy: boolean): fc.Arbitrary<Hostile> {
  const strings = heavy ? (['huge', 'control', 'surrogate', 'empty'] as const) : (['control', 'surrogate', 'empty'] as const);
  return fc.oneof(
    fc.record({ kind: fc.constant('number' as const), value: fc.constantFrom<number | string | null>(-1, -100, 1e15, 9e11, 1.5, 0.5, 1e300, 'NaN', '1e15', 'Infinity', '-0', null, 2 ** 53 + 1) }),
    fc.record({ kind: fc.constant('string' as const), value: fc.constantFrom(...strings) }),
    fc.record({ kind: fc.constant('array' as const) }),
    ...(heavy ? [fc.record({ kind: fc.constant('deep' as const) })] : []),
    fc.record({ kind: fc.constant('time' as const), value: fc.constantFrom<string | number>('1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', 'nope', '', 0, 253402300799999, 1e20, -1) }),
  );
}

/**
 * One to three mutations of `records` records, applied in order (fast-check shrinks to the fewest that fail). Without
 * `heavy` the huge inputs (1 MB strings, 10,000-deep nesting) are left to the fixed examples (`heavyExamples`), so
 * the unit suite's slice pays for them a fixed few times instead of in one mutation in twenty.
 */
export function mutations(records: number, heavy = true): fc.Arbitrary<Mutation[]> {
  return fc.array(mutation(records, heavy), { minLength: 1, maxLength: 3 });
}

/** The huge inputs as fixed examples: a 1 MB string and a 10,000-deep nesting at two places of every record. */
export function heavyExamples(records: number): Mutation[][] {
  const examples: Mutation[][] = [];
  for (let record = 0; record < records; record++) {
    for (const at of [0, 7]) {
      examples.push([{ kind: 'value', record, at, hostile: { kind: 'string', value: 'huge' } }]);
      examples.push([{ kind: 'value', record, at, hostile: { kind: 'deep' } }]);
    }
  }
  return examples;
}

/** A mutation of one of `records` records. */
export function mutation(records: number, heavy = true): fc.Arbitrary<Mutation> {
  const record = fc.nat({ max: Math.max(0, records - 1) });
  const hostile = hostileValues(heavy);
  return fc.oneof(
    { weight: 10, arbitrary: fc.record({ kind: fc.constant('value' as const), record, at: fc.nat(), hostile }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), record }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('self' as const), record, variant: fc.nat({ max: 3 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), record, at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('nul' as const), record, at: fc.nat(), length: fc.integer({ min: 1, max: 4096 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('utf8' as const), record, at: fc.nat() }) },
  );
}

/** Every path into a JSON value (the root included), in a fixed order. */
export function pathsOf(value: Json, prefix: (string | number)[] = [], into: (string | number)[][] = []): (string | number)[][] {
  into.push(prefix);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...prefix, index], into));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) pathsOf(value[key], [...prefix, key], into);
  return into;
}

function hostileValue(node: Json, choice: Hostile): Json {
  switch (choice.kind) {
    case 'number':
      return choice.value;
    case 'string':
      return choice.value === 'huge' ? 'x'.repeat(HUGE_STRING_BYTES) : choice.value === 'control' ? '\u0000\u0007\u001b[31m\r\n\u2028' : choice.value === 'surrogate' ? 'a\ud800b\udfff' : '';
    case 'array':
      return [node];
    case 'deep':
      return DEEP_MARK;
    case 'time':
      return choice.value;
    default:
      return choice satisfies never;
  }
}

const TIME_KEY = /time|created|updated|start|end|timestamp/i;

/** The paths a hostile value of this kind aims at: numbers for numbers, times for times, and so on. */
function aimed(record: Json, choice: Hostile): (string | number)[][] {
  const paths = pathsOf(record);
  const nodeAt = (path: (string | number)[]) => path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], record);
  const fits = paths.filter((path) => {
    const node = nodeAt(path);
    switch (choice.kind) {
      case 'number':
        return typeof node === 'number';
      case 'time':
        return TIME_KEY.test(String(path[path.length - 1] ?? '')) && (typeof node === 'number' || typeof node === 'string');
      case 'string':
        return typeof node === 'string';
      default:
        return path.length > 0 && node !== null && typeof node === 'object';
    }
  });
  return fits.length > 0 ? fits : paths;
}

/** The record with the node at path `at` (modulo the paths of its kind) replaced by the hostile value. */
export function replaceAt(record: Json, at: number, choice: Hostile): Json {
  const paths = aimed(record, choice);
  const path = paths[at % paths.length];
  if (path.length === 0) return hostileValue(record, choice);
  const copy = structuredClone(record);
  let parent = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1];
  parent[last] = hostileValue(parent[last], choice);
  return copy;
}

/** Serialises a record as one line's bytes (no newline), expanding the deep-nesting marker. */
export function lineOf(record: Json): Buffer {
  const text = JSON.stringify(record);
  const mark = JSON.stringify(DEEP_MARK);
  return Buffer.from(text.includes(mark) ? text.split(mark).join(`${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}`) : text, 'utf8');
}

/** A byte-level mutation of one serialised line. */
export function mutateBytes(line: Buffer, mutation: Mutation): Buffer {
  switch (mutation.kind) {
    case 'truncate':
      return line.subarray(0, mutation.at % Math.max(1, line.length));
    case 'nul': {
      const at = mutation.at % (line.length + 1);
      return Buffer.concat([line.subarray(0, at), Buffer.alloc(mutation.length), line.subarray(at)]);
    }
    case 'utf8': {
      const at = mutation.at % (line.length + 1);
      return Buffer.concat([line.subarray(0, at), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), line.subarray(at)]);
    }
    case 'huge-line':
      return Buffer.concat([line.subarray(0, Math.max(0, line.length - 1)), Buffer.from(`,"pad":"${'y'.repeat(HUGE_LINE_BYTES)}"}`)]);
    default:
      return line;
  }
}

/** A readable one-line account of mutations (for failure reports; the huge parts are named, not printed). */
export function describeMutation(mutation: Mutation | Mutation[]): string {
  return JSON.stringify(mutation);
}

/** The records after the structural mutations (values, duplicates, self-references), in order. */
export function applyStructural(records: Json[], list: readonly Mutation[], self: (records: Json[], variant: number) => Json[]): Json[] {
  let out = records;
  for (const change of list) {
    const index = Math.min(change.record, out.length - 1);
    if (change.kind === 'value') out = out.map((record, at) => (at === index ? replaceAt(record, change.at, change.hostile) : record));
    if (change.kind === 'duplicate') out = [...out.slice(0, index + 1), structuredClone(out[index]), ...out.slice(index + 1)];
    if (change.kind === 'self') {
      // An earlier mutation may have moved or broken the field the self-reference aims at: then it does nothing.
      try {
        out = self(structuredClone(out), change.variant);
      } catch {
        // left as it was
      }
    }
  }
  return out;
}

/** Applies the byte-level mutations aimed at record `index` to its serialised line. */
export function applyBytes(line: Buffer, index: number, list: readonly Mutation[]): Buffer {
  return list.reduce((bytes, change) => (change.record === index ? mutateBytes(bytes, change) : bytes), line);
}
