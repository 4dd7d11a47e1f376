/** The repository root. */
export declare const ROOT: string;
/** Why out/main does not match the sources (a sentence), or null when it does. */
export declare function staleReason(root?: string): string | null;
/** Makes sure out/main/cli.js is built from the current sources, rebuilding it when not. */
export declare function ensureBuilt(options?: { root?: string; say?: (line: string) => void }): { ok: true; entry: string } | { ok: false; reason: string };
