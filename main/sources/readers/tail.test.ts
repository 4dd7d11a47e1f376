// tailLines against real temp files: appends split mid-line and mid-character, truncation, rotation, cold windows
// and over-long lines.
import { execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TAIL, tailLines, tailReduce, type TailOptions, type TailState } from './tail';
import { FINGERPRINT_BYTES, READ_CHUNK_BYTES } from './kit/bounds';

let folder: string;
let file: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pixelfleet-tail-'));
  file = path.join(folder, 'journal.jsonl');
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function read(state: TailState | null, options: TailOptions = DEFAULT_TAIL) {
  const lines: string[] = [];
  const result = await tailLines(file, state, options, (line) => lines.push(line));
  return { ...result, lines };
}

describe('tailLines', () => {
  it('reads a small file from the start, then costs nothing while unchanged', async () => {
    await writeFile(file, '{"a":1}\n{"b":2}\n');
    const first = await read(null);
    expect(first).toMatchObject({ cold: true, changed: true, bytesRead: 16, lines: ['{"a":1}', '{"b":2}'] });
    const again = await read(first.state);
    expect(again).toMatchObject({ cold: false, changed: false, bytesRead: 0, lines: [] });
    expect(again.state).toBe(first.state);
  });

  it('joins a line and a UTF-8 character split across appends, reading only appended bytes', async () => {
    const line = JSON.stringify({ text: 'café → 日本 🎉' });
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    const emoji = bytes.indexOf(Buffer.from('🎉', 'utf8'));
    // Cut inside the 4-byte emoji, then inside the 3-byte arrow's line remainder.
    await writeFile(file, bytes.subarray(0, emoji + 2));
    let step = await read(null);
    expect(step.lines).toEqual([]);
    expect(step.state.pending.length).toBe(emoji + 2);
    await appendFile(file, bytes.subarray(emoji + 2, bytes.length - 3));
    step = await read(step.state);
    expect(step.lines).toEqual([]);
    expect(step.bytesRead).toBe(bytes.length - 3 - (emoji + 2));
    await appendFile(file, bytes.subarray(bytes.length - 3));
    step = await read(step.state);
    expect(step.bytesRead).toBe(3);
    expect(step.lines).toEqual([line]);
    expect(step.state.pending.length).toBe(0);
  });

  it('emits a final fragment without newline only when it is a complete JSON object', async () => {
    await writeFile(file, '{"first":1}\n{"second":');
    let step = await read(null);
    expect(step.lines).toEqual(['{"first":1}']);
    await appendFile(file, '2}');
    step = await read(step.state);
    expect(step.lines).toEqual(['{"second":2}']);
    expect(step.state.pending.length).toBe(0);
    // The writer's newline arrives later: it yields an empty line, never a duplicate.
    await appendFile(file, '\n{"third":3}\n');
    step = await read(step.state);
    expect(step.lines).toEqual(['', '{"third":3}']);
  });

  /** Reads two old lines, empties the file, writes `regrown` and reads again from the kept state. */
  async function afterTruncation(regrown: string) {
    await writeFile(file, '{"old":1}\n{"old":2}\n');
    const first = await read(null);
    await truncate(file, 0);
    await appendFile(file, regrown);
    return { first, after: await read(first.state) };
  }

  it('restarts cold when the file shrank (truncation)', async () => {
    expect((await afterTruncation('{"new":1}\n')).after).toMatchObject({ cold: true, lines: ['{"new":1}'] });
  });

  it('restarts cold when a new inode replaced the file (rotation), even at the same size', async () => {
    await writeFile(file, '{"old":1}\n');
    const first = await read(null);
    const replacement = path.join(folder, 'next.jsonl');
    await writeFile(replacement, '{"new":2}\n');
    await rename(replacement, file);
    const after = await read(first.state);
    expect(after).toMatchObject({ cold: true, lines: ['{"new":2}'] });
  });

  it('restarts cold when the file was truncated and regrew past the offset (identity rule)', async () => {
    const { first, after } = await afterTruncation('{"new":1,"more":"x"}\n{"new":2,"more":"y"}\n{"new":3}\n');
    expect(after).toMatchObject({ cold: true, cause: 'rewritten', lines: ['{"new":1,"more":"x"}', '{"new":2,"more":"y"}', '{"new":3}'] });
    expect(after.state.ino).toBe(first.state.ino);
  });

  it('restarts cold when the file was renamed away and a larger one took its path (rotation)', async () => {
    await writeFile(file, '{"old":1}\n');
    const first = await read(null);
    await rename(file, `${file}.1`);
    await writeFile(file, '{"new":1}\n{"new":2}\n');
    const after = await read(first.state);
    expect(after).toMatchObject({ cold: true, cause: 'replaced', lines: ['{"new":1}', '{"new":2}'] });
  });

  it('restarts cold when the file was deleted and recreated larger, whatever inode it got', async () => {
    await writeFile(file, '{"old":1}\n');
    const first = await read(null);
    await rm(file);
    await writeFile(file, '{"new":1}\n{"new":2}\n');
    const after = await read(first.state);
    expect(after.cold).toBe(true);
    expect(after.lines).toEqual(['{"new":1}', '{"new":2}']);
  });

  it('restarts cold when the same size holds new bytes (rewritten in place)', async () => {
    await writeFile(file, '{"old":1}\n{"old":2}\n');
    const first = await read(null);
    await writeFile(file, '{"new":1}\n{"new":2}\n');
    // A rewrite moves the modification time; pin it apart so a coarse clock cannot hide the write.
    await utimes(file, new Date(), new Date(first.state.mtimeMs + 5000));
    const after = await read(first.state);
    expect(after).toMatchObject({ cold: true, cause: 'rewritten', lines: ['{"new":1}', '{"new":2}'] });
  });

  it('keeps tailing after an append: the fingerprint follows the offset', async () => {
    await writeFile(file, '{"a":1}\n');
    let step = await read(null);
    for (let index = 0; index < 5; index++) {
      await appendFile(file, `{"n":${index},"pad":"${'p'.repeat(index * 40)}"}\n`);
      step = await read(step.state);
      expect(step.cold).toBe(false);
      expect(step.lines).toHaveLength(1);
    }
    expect(step.state.fingerprint.length).toBe(FINGERPRINT_BYTES);
  });

  it('refuses to open a FIFO at the path instead of blocking on it', async () => {
    execFileSync('mkfifo', [file]);
    await expect(read(null)).rejects.toMatchObject({ code: 'ENOTFILE' });
  });

  it('reads a changed mtime with no new bytes as changed but zero bytes', async () => {
    await writeFile(file, '{"a":1}\n');
    const first = await read(null);
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    const touched = await read(first.state);
    expect(touched).toMatchObject({ cold: false, changed: true, bytesRead: 0, lines: [] });
  });

  it('cold-reads only the last coldBytes of a large file, from the first line boundary', async () => {
    const lineText = JSON.stringify({ filler: 'x'.repeat(1000) }); // 1,014 bytes + newline
    const count = 3000; // ≈ 3 MiB, over the 2 MiB window
    await writeFile(file, `${lineText}\n`.repeat(count));
    const size = (lineText.length + 1) * count;
    const step = await read(null);
    expect(step.cold).toBe(true);
    expect(step.bytesRead).toBeLessThanOrEqual(DEFAULT_TAIL.coldBytes + 1);
    expect(step.lines.every((line) => line === lineText)).toBe(true);
    // Lines whose first byte lies at or after size - 2 MiB are read; the one cut by the boundary is not.
    const start = size - DEFAULT_TAIL.coldBytes;
    expect(step.lines.length).toBe(Math.floor((size - start) / (lineText.length + 1)));
    expect(step.state.offset).toBe(size);
  });

  it('keeps a cold-read line that starts exactly on the window boundary', async () => {
    await writeFile(file, '{"a":1}\n{"b":2}\n');
    const step = await read(null, { coldBytes: 8, maxLineBytes: 1024 });
    expect(step.lines).toEqual(['{"b":2}']);
  });

  it('gives each line the file offset where it starts: cold inside the file, across appends, after a held fragment and a skipped line', async () => {
    const seen: [string, number][] = [];
    const collect = (line: string, offset: number) => seen.push([line, offset]);
    const options = { coldBytes: 14, maxLineBytes: 20 }; // the window starts on the second line (byte 8)
    await writeFile(file, '{"a":1}\n{"bb":2}\n{"c":');
    let state = (await tailLines(file, null, options, collect)).state;
    await appendFile(file, '3}\n{"long":"xxxxxxxxxxxxxxxxxxxx"}\n{"d":4}\n');
    state = (await tailLines(file, state, options, collect)).state;
    const text = '{"a":1}\n{"bb":2}\n{"c":3}\n{"long":"xxxxxxxxxxxxxxxxxxxx"}\n{"d":4}\n';
    expect(seen).toEqual([['{"bb":2}', 8], ['{"c":3}', 17], ['{"d":4}', text.indexOf('{"d":4}')]]);
    expect(state.skippedLines).toBe(1);
  });

  it('skips and counts a line over maxLineBytes without buffering it, across appends', async () => {
    const options = { coldBytes: 1 << 30, maxLineBytes: 1024 };
    await writeFile(file, `{"before":1}\n{"huge":"${'y'.repeat(600)}`);
    let step = await read(null, options);
    expect(step.lines).toEqual(['{"before":1}']);
    await appendFile(file, 'y'.repeat(600));
    step = await read(step.state, options);
    expect(step.state).toMatchObject({ skippedLines: 1, skippingLongLine: true });
    expect(step.state.pending.length).toBe(0);
    await appendFile(file, `${'y'.repeat(5000)}"}\n{"after":2}\n`);
    step = await read(step.state, options);
    expect(step.lines).toEqual(['{"after":2}']);
    expect(step.state).toMatchObject({ skippedLines: 1, skippingLongLine: false });
  });

  it('skips a line over the default 8 MiB bound in one file', async () => {
    const huge = `{"big":"${'z'.repeat(9 * 1024 * 1024)}"}`;
    await writeFile(file, `{"a":1}\n${huge}\n{"b":2}\n`);
    const step = await read(null, { coldBytes: 1 << 30, maxLineBytes: DEFAULT_TAIL.maxLineBytes });
    expect(step.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(step.state.skippedLines).toBe(1);
  });

  it('cuts a cold window inside a multibyte character or inside a line: that line is dropped, the next ones arrive whole', async () => {
    const lines = Array.from({ length: 6 }, (_, index) => JSON.stringify({ n: index, text: `café → 日本 🎉 ${'é'.repeat(index * 7)}` }));
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    await writeFile(file, bytes);
    const third = bytes.indexOf(Buffer.from(lines[2], 'utf8'));
    const cuts = [
      bytes.indexOf(Buffer.from('🎉', 'utf8'), third) + 2, // inside the 4-byte emoji
      bytes.indexOf(Buffer.from('日', 'utf8'), third) + 1, // inside a 3-byte character
      third + 3, // inside the line, on an ASCII byte
    ];
    for (const cut of cuts) {
      expect((bytes[cut] & 0xc0) === 0x80 || cut === third + 3).toBe(true);
      const step = await read(null, { coldBytes: bytes.length - cut, maxLineBytes: 1024 });
      expect(step.lines).toEqual(lines.slice(3));
      expect(step.lines.join('')).not.toContain('\ufffd');
      expect(step.state.skippedLines).toBe(0);
    }
  });

  it('joins lines and characters across read chunks when a window is longer than one read', async () => {
    // The 4-byte emoji of the line that crosses the first chunk boundary starts two bytes before it.
    const head = JSON.stringify({ pad: 'p'.repeat(READ_CHUNK_BYTES - 40) });
    const before = Buffer.byteLength(`${head}\n{"x":"`);
    const crossing = `{"x":"${'a'.repeat(READ_CHUNK_BYTES - 2 - before)}🎉 → done"}`;
    const tail = Array.from({ length: 3000 }, (_, index) => JSON.stringify({ n: index, text: 'ü'.repeat(index % 50) }));
    const lines = [head, crossing, ...tail];
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    expect(bytes.indexOf(Buffer.from('🎉', 'utf8'))).toBe(READ_CHUNK_BYTES - 2);
    await writeFile(file, bytes);
    const step = await read(null, { coldBytes: bytes.length + READ_CHUNK_BYTES, maxLineBytes: DEFAULT_TAIL.maxLineBytes });
    expect(step.bytesRead).toBe(bytes.length);
    expect(step.lines).toEqual(lines);
  });

  it('keeps as fingerprint the bytes just before the offset, after a cold read and after an append', async () => {
    await writeFile(file, `${JSON.stringify({ a: 'x'.repeat(300) })}\n`);
    let step = await read(null);
    const before = Buffer.from(`${JSON.stringify({ a: 'x'.repeat(300) })}\n`);
    expect(step.state.fingerprint).toEqual(before.subarray(before.length - FINGERPRINT_BYTES));
    await appendFile(file, '{"b":2}\n');
    step = await read(step.state);
    const after = Buffer.concat([before, Buffer.from('{"b":2}\n')]);
    expect(step.state.fingerprint).toEqual(after.subarray(after.length - FINGERPRINT_BYTES));
  });

  it('throws for a missing file', async () => {
    await expect(read(null)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('tailReduce', () => {
  it('reduces appends into the state it is given, and starts a rewritten file from a fresh one before its first line', async () => {
    await writeFile(file, '{"a":1}\n');
    let made = 0;
    const fresh = () => ({ generation: ++made, lines: [] as string[] });
    const reduce = (state: { lines: string[] }, line: string) => state.lines.push(line);
    const first = await tailReduce(file, null, DEFAULT_TAIL, fresh(), fresh, reduce);
    expect(first.derived).toEqual({ generation: 2, lines: ['{"a":1}'] }); // a first read is cold too
    await appendFile(file, '{"b":2}\n');
    const appended = await tailReduce(file, first.result.state, DEFAULT_TAIL, first.derived, fresh, reduce);
    expect(appended.derived).toBe(first.derived);
    expect(appended.derived.lines).toEqual(['{"a":1}', '{"b":2}']);
    await writeFile(file, '{"c":3}\n{"d":4}\n');
    const rewritten = await tailReduce(file, appended.result.state, DEFAULT_TAIL, appended.derived, fresh, reduce);
    expect(rewritten.result).toMatchObject({ cold: true, bytesRead: 16 });
    expect(rewritten.derived).toEqual({ generation: 3, lines: ['{"c":3}', '{"d":4}'] });
  });

  it('reads each byte of a cold window once: the lines reach the reducer once, in order, end to end', async () => {
    const lines = Array.from({ length: 4000 }, (_, index) => JSON.stringify({ n: index, text: `${'x'.repeat(index % 1200)} → ü` }));
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8'); // ≈ 2.4 MiB, over the window
    expect(bytes.length).toBeGreaterThan(DEFAULT_TAIL.coldBytes);
    await writeFile(file, bytes);
    const colds: [string, number][] = [];
    const fresh = (cause: string, windowStart: number) => {
      colds.push([cause, windowStart]);
      return { seen: [] as [number, number][] };
    };
    const reduce = (state: { seen: [number, number][] }, line: string, offset: number) => state.seen.push([offset, Buffer.byteLength(line) + 1]);

    const check = (step: Awaited<ReturnType<typeof tailReduce<{ seen: [number, number][] }>>>) => {
      const windowStart = bytes.length - DEFAULT_TAIL.coldBytes;
      const seen = step.derived.seen;
      // The counter: bytes read = the window plus the one byte before it that tells a line boundary; the reducer got
      // every byte of it from the first whole line on, each once, and nothing twice.
      expect(step.result.bytesRead).toBe(DEFAULT_TAIL.coldBytes + 1);
      expect(seen[0][0]).toBe(bytes.indexOf(0x0a, windowStart - 1) + 1);
      for (let index = 1; index < seen.length; index++) expect(seen[index][0]).toBe(seen[index - 1][0] + seen[index - 1][1]);
      const [lastOffset, lastBytes] = seen[seen.length - 1];
      expect(lastOffset + lastBytes).toBe(bytes.length);
      expect(seen.map(([offset]) => bytes.subarray(offset, bytes.indexOf(0x0a, offset)).toString('utf8'))).toEqual(lines.slice(lines.length - seen.length));
    };

    const first = await tailReduce(file, null, DEFAULT_TAIL, fresh('none', 0), fresh, reduce);
    check(first);
    expect(colds).toEqual([['none', 0], ['first', bytes.length - DEFAULT_TAIL.coldBytes]]);

    // Rewritten in place at the same size: one cold read again, into a fresh state, never a second pass.
    bytes.write('Q', bytes.length - 20, 'utf8'); // an x of the last line, within the fingerprint
    await writeFile(file, bytes);
    await utimes(file, new Date(), new Date(first.result.state.mtimeMs + 5000));
    const rewritten = await tailReduce(file, first.result.state, DEFAULT_TAIL, first.derived, fresh, reduce);
    expect(rewritten.result).toMatchObject({ cold: true, cause: 'rewritten' });
    expect(rewritten.derived).not.toBe(first.derived);
    expect(colds.at(-1)).toEqual(['rewritten', bytes.length - DEFAULT_TAIL.coldBytes]);
    expect(rewritten.derived.seen.length).toBe(first.derived.seen.length);
    expect(rewritten.result.bytesRead).toBe(DEFAULT_TAIL.coldBytes + 1);
  });

  it('tells a cold reset where the window starts: inside a long file, at 0 once the file was truncated', async () => {
    const text = `${JSON.stringify({ pad: 'p'.repeat(100) })}\n`.repeat(10);
    await writeFile(file, text);
    const options = { coldBytes: 256, maxLineBytes: 1024 };
    const colds: [string, number][] = [];
    const fresh = (cause: string, windowStart: number) => (colds.push([cause, windowStart]), { lines: 0 });
    const count = (state: { lines: number }) => void (state.lines += 1);
    const first = await tailReduce(file, null, options, { lines: 0 }, fresh, count);
    expect(colds).toEqual([['first', text.length - 256]]);
    await truncate(file, 0);
    await appendFile(file, '{"new":1}\n');
    const after = await tailReduce(file, first.result.state, options, first.derived, fresh, count);
    expect(colds.at(-1)).toEqual(['truncated', 0]);
    expect(after.derived).toEqual({ lines: 1 });
  });
});
