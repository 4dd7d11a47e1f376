/**
 * A persona's cosmetic look, chosen for variety from a hash of its id: the same id always gets the same look, and
 * the look never depends on (or changes with) the role or the seat.
 */
import type { Appearance } from './schemas';

/** How many choices each appearance field has (the ranges of AppearanceSchema). */
export const APPEARANCE_CHOICES = { body: 4, hair: 8, palette: 8, accessory: 6 } as const;

/** FNV-1a (32 bits) over the UTF-16 code units of a string, finished with an avalanche so low bits mix well. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV-1a alone leaves the low bits of short, similar ids correlated; this finaliser (from MurmurHash3) spreads them.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** The deterministic appearance of the persona with this id. */
export function appearanceFor(personaId: string): Appearance {
  const hash = hashText(personaId);
  return {
    body: hash % APPEARANCE_CHOICES.body,
    hair: Math.floor(hash / 4) % APPEARANCE_CHOICES.hair,
    palette: Math.floor(hash / 32) % APPEARANCE_CHOICES.palette,
    accessory: Math.floor(hash / 256) % APPEARANCE_CHOICES.accessory,
  };
}
