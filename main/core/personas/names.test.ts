import { describe, expect, it } from 'vitest';
import { distinctNames, generatePersonaName, INVENTED_NAMES, PERSONA_NAMES } from './names';

describe('generatePersonaName', () => {
  it('picks among the names nobody holds, ignoring case', () => {
    const taken = PERSONA_NAMES.slice(1).map((name) => name.toUpperCase());
    expect(generatePersonaName(taken, () => 0)).toBe(PERSONA_NAMES[0]);
  });

  it('picks an unused invented name once the list is taken, before numbering', () => {
    const name = generatePersonaName([...PERSONA_NAMES, INVENTED_NAMES[0]], () => 0);
    expect(name).toBe(INVENTED_NAMES[1]);
    expect(name).not.toMatch(/\d/);
  });

  it('adds the smallest free number once every name is taken', () => {
    const taken = [...PERSONA_NAMES, ...INVENTED_NAMES, `${PERSONA_NAMES[3]} 2`];
    expect(generatePersonaName(taken, () => 3)).toBe(`${PERSONA_NAMES[3]} 3`);
  });
});

describe('distinctNames', () => {
  const preferred = ['Pip', 'Bramble', 'Clover', 'Wren'];

  it('starts with the preferred names in order', () => {
    expect(distinctNames(preferred, 3)).toEqual(['Pip', 'Bramble', 'Clover']);
  });

  it('never repeats a name, ignoring case, even when the lists share names', () => {
    const names = distinctNames([...preferred, 'clover'], 200);
    expect(names).toHaveLength(200);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(200);
  });

  it('uses every unused name before numbering one', () => {
    const unnumbered = new Set([...preferred, ...PERSONA_NAMES, ...INVENTED_NAMES].map((name) => name.toLowerCase())).size;
    const names = distinctNames(preferred, unnumbered + 2);
    expect(names.slice(0, unnumbered).some((name) => /\d/.test(name))).toBe(false);
    expect(names.slice(unnumbered)).toEqual(['Pip 2', 'Bramble 2']);
  });
});
