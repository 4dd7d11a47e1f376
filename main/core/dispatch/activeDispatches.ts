/** Each item's active dispatch straight from the app home's stores, for one-shot readers such as `work-items`. */
import path from 'node:path';
import type { ItemDispatch } from '../../../shared/dispatch';
import { PersonaService } from '../personas/PersonaService';
import { DispatchStore } from './dispatchStore';

/** Active dispatches keyed `source\u0000id`, each naming its persona as it is called now. */
export async function activeDispatches(home: string): Promise<Map<string, ItemDispatch>> {
  const records = (await new DispatchStore(home).list()).filter((record) => record.doneAt === null);
  const map = new Map<string, ItemDispatch>();
  if (records.length === 0) return map;
  const personas = new PersonaService({ file: path.join(home, 'personas.json') });
  try {
    const names = new Map((await personas.list()).map((persona) => [persona.id, persona.name]));
    for (const record of records) {
      map.set(`${record.source}\u0000${record.itemId}`, { personaId: record.personaId, persona: names.get(record.personaId) ?? record.persona, at: record.at, branch: record.branch, worktree: record.worktree });
    }
  } finally {
    personas.dispose();
  }
  return map;
}
