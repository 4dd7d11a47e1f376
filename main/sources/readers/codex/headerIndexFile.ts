/**
 * The Codex header index on disk (`codex-header-index.json` in the app home): per rollout its path under
 * `sessions/`, its size and mtime when line 1 was read, and the parsed header fields (never transcript content).
 * A bounded read; an atomic write (temp file, fsync, rename); a file that cannot be used is moved aside with one log
 * line and the index starts empty (discovery then reads every header once and writes it again). The text's format,
 * and the migration of older versions, are in ./headerIndexCodec.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { cleanStaleTemps, commitTemp, discardTemp, moveAside, writeTemp } from '../../../kit/fileStore';
import { CODEX_HEADER_INDEX_BYTES, CODEX_HEADER_INDEX_TEMP_STALE_MS } from '../kit/bounds';
import { decodeIndex, encodeIndex } from './headerIndexCodec';
import type { IndexedRollouts } from './headerIndexRows';

/** The index file's name in the app home. */
export const CODEX_HEADER_INDEX_FILE = 'codex-header-index.json';

/** What the file gave: its rollouts in file order, and whether it is of an older version. */
export interface LoadedIndex {
  rollouts: IndexedRollouts;
  stale: boolean;
}

function empty(): LoadedIndex {
  return { rollouts: { paths: [], entries: [] }, stale: false };
}

/** The index of one Codex home in one file; `log` receives one line for each file set aside or not written. */
export class HeaderIndexFile {
  private cleaned = false;

  constructor(
    readonly file: string,
    private readonly codexHome: string,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * The indexed rollouts, in file order; none when there is no usable index (never throws).
   * `stale`: the file is of an older version, to be written again in this one.
   */
  async load(): Promise<LoadedIndex> {
    if (!this.cleaned) {
      this.cleaned = true;
      // Temp files of crashed writes are removed in the background: nothing here waits for it.
      void cleanStaleTemps(this.file, CODEX_HEADER_INDEX_TEMP_STALE_MS).catch(() => []);
    }
    const text = this.readBounded();
    const decoded = text.kind === 'read' ? decodeIndex(text.text, this.codexHome) : text;
    if (decoded.kind === 'missing') return empty();
    if (decoded.kind === 'index') return { rollouts: decoded.rollouts, stale: decoded.stale };
    if (decoded.kind === 'foreign') return empty(); // replaced by the next write
    await this.setAside(decoded.reason);
    return empty();
  }

  /** Writes the rollouts (newest first) atomically; a failure is logged and leaves the old file as it was. */
  async save(rollouts: IndexedRollouts): Promise<void> {
    const text = encodeIndex(this.codexHome, rollouts);
    let temp: string | null = null;
    try {
      temp = await writeTemp(this.file, text);
      await commitTemp(temp, this.file);
    } catch (error) {
      if (temp) await discardTemp(temp).catch(() => undefined);
      this.log(`pixelfleet: could not write the Codex header index ${this.file} (${reasonOf(error)}); the next discovery reads the headers again.`);
    }
  }

  /**
   * The file's text, read synchronously like discovery's listings and stats (./fileSystem): one bounded read of
   * about a megabyte, where four asynchronous steps each waited for a pool thread and then for the main thread.
   */
  private readBounded(): { kind: 'missing' } | { kind: 'read'; text: string } | { kind: 'unusable'; reason: string } {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (error) {
      // No index yet, or no app home folder yet (a writer creates it).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'unusable', reason: `cannot be read (${reasonOf(error)})` };
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return { kind: 'unusable', reason: 'is not a regular file' };
      if (info.size > CODEX_HEADER_INDEX_BYTES) return { kind: 'unusable', reason: `is larger than ${CODEX_HEADER_INDEX_BYTES} bytes` };
      const buffer = Buffer.allocUnsafe(info.size);
      let filled = 0;
      while (filled < info.size) {
        const bytesRead = readSync(fd, buffer, filled, info.size - filled, filled);
        if (bytesRead === 0) break; // shorter now than when it was stat-ed
        filled += bytesRead;
      }
      return { kind: 'read', text: buffer.toString('utf8', 0, filled) };
    } catch (error) {
      return { kind: 'unusable', reason: `cannot be read (${reasonOf(error)})` };
    } finally {
      closeSync(fd);
    }
  }

  private async setAside(reason: string): Promise<void> {
    let where: string;
    try {
      where = `moved aside to ${await moveAside(this.file, new Date())}`;
    } catch (error) {
      where = `could not be moved aside (${reasonOf(error)})`;
    }
    this.log(`pixelfleet: the Codex header index ${this.file} ${reason}; it was ${where} and is rebuilt from the rollouts.`);
  }
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
