/** Label matching for station backlogs: the same key rule as roles (trim, collapse whitespace, lowercase). */
import { roleKey } from '../../../shared/roles';
import type { WorkItem } from '../../../shared/schemas';

/** The comparison key of a role or a label: one rule with roles, so "Sound  Designer" and "sound designer" match. */
export function labelKey(label: string): string {
  return roleKey(label);
}

/** The items carrying `label` among their labels, compared by key; a blank label matches nothing. */
export function itemsLabelled(items: readonly WorkItem[], label: string): WorkItem[] {
  const key = labelKey(label);
  if (key === '') return [];
  return items.filter((item) => item.labels.some((candidate) => labelKey(candidate) === key));
}
