/**
 * What a harness folder tells the rest of the app about itself: its name, how to build its reader from the resolved
 * homes, how the CLI names one of its sessions, and how the auto-open rule recognises a session started in a folder.
 * Each folder exports one `harness.ts` of this shape; ./registry lists them, and nothing outside a harness folder
 * switches on the harness.
 */
import type { Candidate, Harness, SeatAddress } from '../../../shared/schemas';
import type { HarnessHomes } from './homes';
import { stat } from 'node:fs/promises';
import type { KnownFormat } from './kit/census';
import type { SeatReader } from './port';

/** The environment a harness may consult for the CLI (handed in; readers never read `process.env`). */
export type HarnessEnv = Readonly<Record<string, string | undefined>>;

/** What the app hands every reader beside the harness homes. */
export interface ReaderContext {
  /** The app home (where personas.json lives): a reader may keep its own index files there. */
  appHome: string;
  /** Where a reader reports, in one line, an index file it set aside or could not write. */
  log: (message: string) => void;
  /** Where a harness hands a background pass it started (Claude's usage ledger, issue 26); absent: it keeps none. */
  keep?: (pass: BackgroundPass) => void;
}

/** Work a harness keeps running beside its reader: the app waits for it to settle and ends it with the app. */
export interface BackgroundPass {
  idle(): Promise<void>;
  dispose(): Promise<void>;
}

export interface HarnessDescriptor {
  readonly id: Harness;
  /** The name the owner knows it by ("Claude Code"). */
  readonly displayName: string;
  /** The reader over the owner's configured homes; without a context (a CLI one-off, a test) it keeps no index file. */
  createReader(homes: HarnessHomes, context?: ReaderContext): SeatReader;
  /** How the CLI names a session of this harness: a transcript path or a session id (for usage and bounds). */
  readonly cliTarget: 'path' | 'id';
  /** The CLI's valued flags this harness reads (`--codex-home DIR`, `--db PATH`), each a path. */
  readonly cliFlags: readonly string[];
  /** The seat the CLI's target names, or a ServiceError saying why not. */
  seatFromCliTarget(target: string, flags: Readonly<Record<string, string | undefined>>, env: HarnessEnv): Promise<SeatAddress>;
  /** A reader for one seat the CLI opened (its home is the seat's own). */
  readerForSeat(seat: SeatAddress): SeatReader;
  /**
   * The auto-open matcher beyond a recorded working folder: true when the candidate, which records none, is known
   * by the harness's own layout to have started in `folder` (an absolute, resolved path).
   */
  startedIn(candidate: Candidate, folder: string): boolean;
  /** The kinds and fields its reader knows and the tested range (format drift; `pixelfleet doctor` reports it). */
  readonly known: KnownFormat;
  /** Where it keeps sessions under the homes, each with whether it is there (`pixelfleet doctor` lists them). */
  storeHomes(homes: HarnessHomes): Promise<StoreHome[]>;
  /** Why a store found at one of those paths cannot be read as a whole, or null (harnesses keeping one database). */
  storeProblem?(path: string): Promise<string | null>;
}

/** A place a harness keeps its sessions, and whether it exists. */
export interface StoreHome {
  path: string;
  found: boolean;
}

/** The place at `path`, found when anything is there. */
export async function storeHome(path: string): Promise<StoreHome> {
  return { path, found: await stat(path).then(() => true, () => false) };
}
