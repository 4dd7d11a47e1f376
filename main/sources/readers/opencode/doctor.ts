/** What `pixelfleet doctor` asks of OpenCode: where its databases are, and whether one can be read as a whole. */
import { readdir } from 'node:fs/promises';
import { storeHome, type StoreHome } from '../harness';
import type { HarnessHomes } from '../homes';
import { resolveOpenCodeDbs } from './locate';
import { inspectStore, schemaReason } from './schema';
import { withReadOnly } from './sqlite';

/** The databases under the homes (OPENCODE_DB, else the data folder's), or the folder itself when it holds none. */
export async function openCodeStoreHomes(homes: HarnessHomes): Promise<StoreHome[]> {
  const found = resolveOpenCodeDbs(homes.opencodeDb ? { OPENCODE_DB: homes.opencodeDb } : {}, homes.opencodeDataDir);
  const listed = await Promise.all(found.map((path) => storeHome(path)));
  if (listed.length > 0) return listed;
  if (homes.opencodeDb) return [await storeHome(homes.opencodeDb)];
  return [{ path: homes.opencodeDataDir, found: (await readdir(homes.opencodeDataDir).catch(() => null)) !== null }];
}

/** Why an OpenCode database cannot be read (it does not open, or lacks the tables the reader needs), or null. */
export async function openCodeStoreProblem(path: string): Promise<string | null> {
  if (!path.endsWith('.db')) return null;
  try {
    return await withReadOnly(path, (database) => {
      const store = inspectStore(database);
      return store.ok ? null : schemaReason(store.missing);
    });
  } catch (error) {
    return `The OpenCode database could not be read: ${(error as Error).message}`;
  }
}
