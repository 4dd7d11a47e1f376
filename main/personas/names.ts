/** Pleasant generated names for personas hired without one. Pure: the caller supplies the random choice. */

/** The first names a generated persona may get (short, easy to type in the CLI, varied in origin). */
export const PERSONA_NAMES = [
  'Ada', 'Basil', 'Clover', 'Dara', 'Edith', 'Felix', 'Greta', 'Hugo', 'Iris', 'Juno', 'Kai', 'Lena', 'Milo',
  'Nadia', 'Otto', 'Pia', 'Quinn', 'Rosa', 'Sami', 'Tove', 'Umar', 'Vera', 'Wren', 'Xia', 'Yara', 'Zeno',
  'Anouk', 'Bram', 'Cyra', 'Dev', 'Elio', 'Freya', 'Ines', 'Jun', 'Kira', 'Lior', 'Mira', 'Noor', 'Oren', 'Tariq',
] as const;

/**
 * A name no persona holds yet (compared case-insensitively). `pick(count)` returns an index in [0, count). When every
 * name is taken, a number is added ("Ada 2"), the smallest one free.
 */
export function generatePersonaName(taken: Iterable<string>, pick: (count: number) => number): string {
  const takenKeys = new Set([...taken].map((name) => name.toLowerCase()));
  const free = PERSONA_NAMES.filter((name) => !takenKeys.has(name.toLowerCase()));
  if (free.length > 0) return free[pick(free.length)];
  const base = PERSONA_NAMES[pick(PERSONA_NAMES.length)];
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base} ${suffix}`;
    if (!takenKeys.has(candidate.toLowerCase())) return candidate;
  }
}
