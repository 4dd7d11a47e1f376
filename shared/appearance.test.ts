import { describe, expect, it } from 'vitest';
import { appearanceFor, hashText } from './appearance';
import { AppearanceSchema } from './schemas';

describe('appearanceFor', () => {
  it('is deterministic for an id', () => {
    expect(appearanceFor('p_abcdefghij')).toEqual(appearanceFor('p_abcdefghij'));
    expect(hashText('')).toBe(hashText(''));
  });

  it('stays inside the schema ranges and uses every choice across many ids', () => {
    const seen = { body: new Set<number>(), hair: new Set<number>(), palette: new Set<number>(), accessory: new Set<number>() };
    for (let index = 0; index < 2000; index += 1) {
      const appearance = appearanceFor(`p_${index.toString(32).padStart(10, 'a')}`);
      expect(AppearanceSchema.safeParse(appearance).success).toBe(true);
      seen.body.add(appearance.body);
      seen.hair.add(appearance.hair);
      seen.palette.add(appearance.palette);
      seen.accessory.add(appearance.accessory);
    }
    expect([seen.body.size, seen.hair.size, seen.palette.size, seen.accessory.size]).toEqual([4, 8, 8, 6]);
  });

  it('gives ids that differ in one character different looks most of the time', () => {
    const looks = new Set<string>();
    for (const suffix of 'abcdefghijklmnopqrstuvwxyz234567') looks.add(JSON.stringify(appearanceFor(`p_aaaaaaaaa${suffix}`)));
    expect(looks.size).toBeGreaterThan(20);
  });
});
