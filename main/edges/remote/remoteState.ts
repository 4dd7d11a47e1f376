/** What this host knows of each remote, as the world merge and the extras' merge read it. */
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot, Notice } from '../../../shared/schemas';

/** What this host knows of one remote. */
export interface RemoteState {
  name: string;
  /** The remote's last snapshot (kept while it is unreachable), or null before the first. */
  snapshot: FleetSnapshot | null;
  board: JobBoard | null;
  /** When it became unreachable (ISO), or null while connected (or still connecting for the first time). */
  unreachableSince: string | null;
  /** Why it is unreachable or refused, as a sentence. */
  reason: string | null;
  /** The remote speaks another contract version (the reason then says which Pixelfleet it needs). */
  skewed?: boolean;
  /** Issue 36: the warning naming the remote's seats whose parts broke the contract on arrival (absent: none). */
  contractNotice?: Notice | null;
}
