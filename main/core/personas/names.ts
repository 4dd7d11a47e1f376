/** Pleasant generated names for personas hired without one. Pure: the caller supplies the random choice. */

/** The first names a generated persona may get (short, easy to type in the CLI, varied in origin). */
export const PERSONA_NAMES = [
  'Ada', 'Basil', 'Clover', 'Dara', 'Edith', 'Felix', 'Greta', 'Hugo', 'Iris', 'Juno', 'Kai', 'Lena', 'Milo',
  'Nadia', 'Otto', 'Pia', 'Quinn', 'Rosa', 'Sami', 'Tove', 'Umar', 'Vera', 'Wren', 'Xia', 'Yara', 'Zeno',
  'Anouk', 'Bram', 'Cyra', 'Dev', 'Elio', 'Freya', 'Ines', 'Jun', 'Kira', 'Lior', 'Mira', 'Noor', 'Oren', 'Tariq',
] as const;

/** Syllables of invented names: a big fleet gets more distinct names before any name is numbered. */
const NAME_STARTS = ['Bel', 'Cor', 'Dun', 'Fen', 'Hol', 'Lum', 'Mar', 'Nim', 'Pel', 'Ros', 'Sol', 'Tam', 'Vel', 'Wil'] as const;
const NAME_ENDS = ['by', 'da', 'ic', 'lo', 'mi', 'na', 'ra', 'to'] as const;

/** Invented two-syllable names ("Belby", "Corda", …), in a fixed order, each once. */
export const INVENTED_NAMES: readonly string[] = NAME_ENDS.flatMap((end) => NAME_STARTS.map((start) => `${start}${end}`));

/** The smallest numbered form of `base` ("Ada 2", "Ada 3", …) not in `takenKeys` (lower-case names). */
function numberedName(base: string, takenKeys: ReadonlySet<string>): string {
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base} ${suffix}`;
    if (!takenKeys.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * A name no persona holds yet (compared case-insensitively). `pick(count)` returns an index in [0, count). The list
 * comes first, then the invented names; only when every one is taken is a number added ("Ada 2"), the smallest free.
 */
export function generatePersonaName(taken: Iterable<string>, pick: (count: number) => number): string {
  const takenKeys = new Set([...taken].map((name) => name.toLowerCase()));
  const free = PERSONA_NAMES.filter((name) => !takenKeys.has(name.toLowerCase()));
  if (free.length > 0) return free[pick(free.length)];
  const invented = INVENTED_NAMES.filter((name) => !takenKeys.has(name.toLowerCase()));
  if (invented.length > 0) return invented[pick(invented.length)];
  return numberedName(PERSONA_NAMES[pick(PERSONA_NAMES.length)], takenKeys);
}

/**
 * `count` distinct names in a fixed order: the preferred names (each once, case-insensitively), then the generated
 * list, then the invented names, and only then numbered forms of the preferred names. Used where many agents are
 * named at once (the demo), so no two read alike while unused names remain.
 */
export function distinctNames(preferred: readonly string[], count: number): string[] {
  const names: string[] = [];
  const takenKeys = new Set<string>();
  const take = (name: string) => {
    if (names.length >= count || takenKeys.has(name.toLowerCase())) return;
    takenKeys.add(name.toLowerCase());
    names.push(name);
  };
  for (const name of [...preferred, ...PERSONA_NAMES, ...INVENTED_NAMES]) take(name);
  const bases = preferred.length > 0 ? preferred : PERSONA_NAMES;
  for (let index = 0; names.length < count; index += 1) take(numberedName(bases[index % bases.length], takenKeys));
  return names;
}
