import { describe, expect, it } from 'vitest';
import { isAllowedKey } from '../../shared/terminal';
import { keysOfInput } from './terminalKeys';

describe('Type mode sends only named keys and printable characters', () => {
  it('names Enter, Escape, arrows, Space, BSpace and C-c', () => {
    expect(keysOfInput('\r')).toEqual(['Enter']);
    expect(keysOfInput('\x1b')).toEqual(['Escape']);
    expect(keysOfInput('\x1b[A')).toEqual(['Up']);
    expect(keysOfInput('ab c\x7f')).toEqual(['a', 'b', 'Space', 'c', 'BSpace']);
    expect(keysOfInput('\x03')).toEqual(['C-c']);
    expect(keysOfInput('é✓')).toEqual(['é', '✓']);
  });

  it('drops function keys and other control bytes, and every key it keeps is allowed', () => {
    expect(keysOfInput('\x1b[15~')).toEqual([]);
    expect(keysOfInput('a\x1bOPb\x04')).toEqual(['a', 'b']);
    for (const key of keysOfInput('hi \r\t\x1b[B\x7f\x03')) expect(isAllowedKey(key)).toBe(true);
  });
});
