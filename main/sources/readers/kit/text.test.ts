import { describe, expect, it } from 'vitest';
import { ENTRY_TEXT_BYTES } from './bounds';
import { capText, oneLine } from './text';

describe('the one text cap (UTF-8 bytes)', () => {
  it('keeps a text that fits and cuts a longer one to the cap, ellipsis included', () => {
    expect(capText('short', ENTRY_TEXT_BYTES)).toBe('short');
    const cut = capText('x'.repeat(5000), 1000);
    expect(Buffer.byteLength(cut)).toBe(1000);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('never splits a character, whatever its width', () => {
    for (const unit of ['é', '€', '😀']) {
      const cut = capText(unit.repeat(3000), ENTRY_TEXT_BYTES);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(ENTRY_TEXT_BYTES);
      expect(cut).not.toContain('\uFFFD');
      expect(cut.slice(0, -1)).toBe(unit.repeat(cut.slice(0, -1).length / unit.length));
    }
  });

  it('folds white space for a one-line summary before capping', () => {
    expect(oneLine('  git ls-files |\n\t wc -l ', 200)).toBe('git ls-files | wc -l');
    expect(Buffer.byteLength(oneLine('word '.repeat(100), 200))).toBe(200);
  });
});
