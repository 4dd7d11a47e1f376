import { describe, expect, it } from 'vitest';
import { generatePersonaName, PERSONA_NAMES } from './names';

describe('generatePersonaName', () => {
  it('picks among the names nobody holds, ignoring case', () => {
    const taken = PERSONA_NAMES.slice(1).map((name) => name.toUpperCase());
    expect(generatePersonaName(taken, () => 0)).toBe(PERSONA_NAMES[0]);
  });

  it('adds the smallest free number once every name is taken', () => {
    const taken = [...PERSONA_NAMES, `${PERSONA_NAMES[3]} 2`];
    expect(generatePersonaName(taken, () => 3)).toBe(`${PERSONA_NAMES[3]} 3`);
  });
});
