/**
 * What one Claude file counted per message, kept compact (rule U8): a session counts a message found in two of its
 * files once, so every file remembers each message it counted — by a 53-bit hash of `message.id:requestId`, with its
 * figures, time, model and whether a sidechain line — in one typed array (about 100 bytes a message, against 250 as
 * objects), since a fleet holds every message of every session it reads.
 */
import type { Figures } from '../../../kit/usage/tally';

/** One message as a file counted it: its figures, time (ms, null: not known), model, and whether a sidechain line. */
export interface MessageCopy {
  figures: Figures;
  at: number | null;
  model: string | null;
  side: boolean;
}

/** Numbers per message: input, output, cache read, cache write, 1-hour cache write, time (NaN: not known), side, model. */
const STRIDE = 8;

/** The copies as the checkpoint keeps them. */
export interface SavedCopies {
  hashes: string;
  data: string;
  models: (string | null)[];
}

function base64(values: Float64Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
}

function floats(text: string): Float64Array | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 8 !== 0) return null;
  const values = new Float64Array(bytes.length / 8);
  new Uint8Array(values.buffer).set(bytes);
  return values;
}

/** A file's message copies by hash. */
export class MessageCopies {
  private readonly slots = new Map<number, number>();
  private data = new Float64Array(STRIDE * 8);
  /** Model names by index (a file names few; index 0 is "none"). */
  private readonly models: (string | null)[] = [null];

  get size(): number {
    return this.slots.size;
  }

  has(hash: number): boolean {
    return this.slots.has(hash);
  }

  /** The copy of a message, or undefined when the file holds none. */
  get(hash: number): MessageCopy | undefined {
    const slot = this.slots.get(hash);
    return slot === undefined ? undefined : this.read(slot);
  }

  /** Remembers a message's first counted figures. */
  set(hash: number, copy: MessageCopy): void {
    let slot = this.slots.get(hash);
    if (slot === undefined) {
      slot = this.slots.size;
      if ((slot + 1) * STRIDE > this.data.length) {
        const grown = new Float64Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.slots.set(hash, slot);
    }
    const at = slot * STRIDE;
    const { figures } = copy;
    this.data[at] = figures.input;
    this.data[at + 1] = figures.output;
    this.data[at + 2] = figures.cacheRead;
    this.data[at + 3] = figures.cacheWrite;
    this.data[at + 4] = figures.cacheWrite1h ?? 0;
    this.data[at + 5] = copy.at ?? Number.NaN;
    this.data[at + 6] = copy.side ? 1 : 0;
    this.data[at + 7] = this.modelIndex(copy.model);
  }

  /** Adds what a repeat of the message counted besides (rule U1's growth). */
  add(hash: number, added: Figures): void {
    const slot = this.slots.get(hash);
    if (slot === undefined) return;
    const at = slot * STRIDE;
    this.data[at] += added.input;
    this.data[at + 1] += added.output;
    this.data[at + 2] += added.cacheRead;
    this.data[at + 3] += added.cacheWrite;
    this.data[at + 4] += added.cacheWrite1h ?? 0;
  }

  keys(): IterableIterator<number> {
    return this.slots.keys();
  }

  *entries(): IterableIterator<[number, MessageCopy]> {
    for (const [hash, slot] of this.slots) yield [hash, this.read(slot)];
  }

  [Symbol.iterator](): IterableIterator<[number, MessageCopy]> {
    return this.entries();
  }

  /** The copies as plain JSON for the checkpoint: two base64 arrays (hashes, figures) and the model names. */
  save(): SavedCopies {
    const hashes = Float64Array.from(this.slots.keys());
    const data = this.data.subarray(0, this.slots.size * STRIDE);
    return { hashes: base64(hashes), data: base64(data), models: this.models.slice(1) };
  }

  /** Copies from a checkpoint; null when they do not hold together (the checkpoint is then rebuilt). */
  static load(saved: SavedCopies): MessageCopies | null {
    const hashes = floats(saved.hashes);
    const data = floats(saved.data);
    if (!hashes || !data || data.length !== hashes.length * STRIDE) return null;
    const copies = new MessageCopies();
    copies.models.push(...saved.models);
    for (let slot = 0; slot < hashes.length; slot += 1) {
      const hash = hashes[slot];
      const at = slot * STRIDE;
      const model = data[at + 7];
      if (!Number.isSafeInteger(hash) || hash < 0 || copies.slots.has(hash) || !Number.isInteger(model) || model < 0 || model >= copies.models.length) return null;
      for (let offset = 0; offset < 5; offset += 1) if (!Number.isInteger(data[at + offset]) || data[at + offset] < 0) return null;
      copies.slots.set(hash, slot);
    }
    copies.data = new Float64Array(Math.max(STRIDE * 8, data.length));
    copies.data.set(data);
    return copies;
  }

  private read(slot: number): MessageCopy {
    const at = slot * STRIDE;
    const figures: Figures = { input: this.data[at], output: this.data[at + 1], cacheRead: this.data[at + 2], cacheWrite: this.data[at + 3], reasoning: null };
    if (this.data[at + 4] > 0) figures.cacheWrite1h = this.data[at + 4];
    const time = this.data[at + 5];
    return { figures, at: Number.isNaN(time) ? null : time, model: this.models[this.data[at + 7]] ?? null, side: this.data[at + 6] === 1 };
  }

  private modelIndex(model: string | null): number {
    if (model === null) return 0;
    const known = this.models.indexOf(model);
    if (known >= 0) return known;
    this.models.push(model);
    return this.models.length - 1;
  }
}
