import { describe, expect, it } from 'vitest';
import { cwdFromHead } from './discover';

describe('cwdFromHead', () => {
  it('takes the absolute cwd of the first whole line that has one', () => {
    const head = ['{"type":"file-history-snapshot"}', '{"type":"user","cwd":"/home/ada/src/lantern.parser"}', '{"cwd":"/elsewhere"}', ''].join('\n');
    expect(cwdFromHead(head)).toBe('/home/ada/src/lantern.parser');
    expect(cwdFromHead('{"cwd":"C:\\\\src\\\\app"}\n')).toBe('C:\\src\\app');
  });

  it('skips a line cut by the end of the head, one that is not JSON, and a relative or non-text cwd', () => {
    expect(cwdFromHead('{"cwd":"/whole/but/last"}')).toBeNull();
    expect(cwdFromHead('"cwd" in prose\n{"cwd":"/later"}\n')).toBe('/later');
    expect(cwdFromHead('{"cwd":""}\n{"cwd":42}\n{"cwd":"relative/path"}\nnull\n{}\n')).toBeNull();
  });
});
