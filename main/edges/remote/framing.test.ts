import { describe, expect, it } from 'vitest';
import { createLineDecoder, encodeFrame, type FrameEvent } from './framing';

function decode(chunks: (string | Buffer)[], maxBytes?: number, end = true): FrameEvent[] {
  const found: FrameEvent[] = [];
  const decoder = createLineDecoder((event) => found.push(event), maxBytes);
  for (const chunk of chunks) decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  if (end) decoder.end();
  return found;
}

describe('stdio framing', () => {
  it('yields one frame per line, in order', () => {
    expect(decode(['{"a":1}\n{"b":2}\n'])).toEqual([
      { kind: 'frame', value: { a: 1 } },
      { kind: 'frame', value: { b: 2 } },
    ]);
  });

  it('joins a line split across chunks, even inside a multi-byte character', () => {
    const bytes = Buffer.from('{"name":"Zoë"}\n');
    const split = bytes.indexOf(0xc3) + 1;
    expect(decode(['{"id"', ':7,"x"', ':true}\n', bytes.subarray(0, split), bytes.subarray(split)])).toEqual([
      { kind: 'frame', value: { id: 7, x: true } },
      { kind: 'frame', value: { name: 'Zoë' } },
    ]);
  });

  it('holds a partial line until its newline comes', () => {
    const found: FrameEvent[] = [];
    const decoder = createLineDecoder((event) => found.push(event));
    decoder.push(Buffer.from('{"a":'));
    expect(found).toEqual([]);
    decoder.push(Buffer.from('1}\n'));
    expect(found).toEqual([{ kind: 'frame', value: { a: 1 } }]);
  });

  it('refuses a line over the bound without holding it, then goes on with the next line', () => {
    const huge = `{"x":"${'y'.repeat(100)}"}`;
    const found = decode([huge.slice(0, 40), huge.slice(40), '\n{"ok":1}\n'], 64);
    expect(found).toEqual([{ kind: 'too-large', bytes: huge.length }, { kind: 'frame', value: { ok: 1 } }]);
  });

  it('accepts a line of exactly the bound', () => {
    const line = `{"x":"${'y'.repeat(10)}"}`;
    expect(decode([`${line}\n`], line.length)).toEqual([{ kind: 'frame', value: { x: 'yyyyyyyyyy' } }]);
  });

  it('reports garbage (not JSON, not an object) and keeps going', () => {
    expect(decode(['not json\n[1,2]\n"text"\n{"fine":true}\n'])).toEqual([
      { kind: 'garbage', reason: 'a line that is not JSON' },
      { kind: 'garbage', reason: 'a line that is not a JSON object' },
      { kind: 'garbage', reason: 'a line that is not a JSON object' },
      { kind: 'frame', value: { fine: true } },
    ]);
  });

  it('skips blank lines', () => {
    expect(decode(['\n\n{"a":1}\n\n'])).toEqual([{ kind: 'frame', value: { a: 1 } }]);
  });

  it('reports a last line cut off by the end of the stream as truncated, never as a frame', () => {
    expect(decode(['{"a":1}\n{"b":'])).toEqual([{ kind: 'frame', value: { a: 1 } }, { kind: 'truncated', bytes: 5 }]);
  });

  it('reports an over-long line still open at the end of the stream as too large', () => {
    expect(decode(['x'.repeat(80)], 64)).toEqual([{ kind: 'too-large', bytes: 80 }]);
  });

  it('ends quietly after whole lines', () => {
    expect(decode(['{"a":1}\n'])).toEqual([{ kind: 'frame', value: { a: 1 } }]);
  });

  it('encodes a frame as one line (newlines in strings escaped) and refuses one over the bound', () => {
    const line = encodeFrame({ text: 'two\nlines' });
    expect(line).toBe('{"text":"two\\nlines"}\n');
    expect(line!.split('\n')).toHaveLength(2);
    expect(encodeFrame({ text: 'y'.repeat(100) }, 64)).toBeNull();
  });
});
