/** The OpenCode reader's public surface for the CLI, the census and the composition root. */
export { createOpenCodeReader, projectSeat, LOCKED_REASON } from './reader';
export type { OpenCodeReaderOptions } from './reader';
export { replayCall } from './replay';
export { resolveOpenCodeDb, resolveOpenCodeDbs, openCodeDataDir, seatFromCliTarget, discoverSessions } from './locate';
export { openReadOnly } from './sqlite';
export type { SqliteDatabase } from './sqlite';
export { V2_ONLY_REASON } from './schema';
