/**
 * A seat's drift (issue 29) as the snapshot carries it: the reader's census of unknown kinds and fields, present only
 * when something unknown was seen; a seat whose newest record is of an unknown kind shows its activity as uncertain,
 * since that record may be the one that changed what the seat is doing.
 */
import type { Activity, Seat } from '../../../shared/schemas';
import type { CensusView } from '../../sources/readers/kit/census';

/** The seat's fields from its census: `drift` when anything was unknown, and its activity marked uncertain when due. */
export function driftFields(activity: Activity, census: CensusView | undefined): Pick<Seat, 'activity' | 'drift'> {
  const drift = census?.drift;
  if (!drift) return { activity };
  return { activity: drift.newestUnknown && activity.certain ? { ...activity, certain: false } : activity, drift };
}
