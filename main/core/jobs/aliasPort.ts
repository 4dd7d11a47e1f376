/**
 * What the jobs board needs to name its jobs: never-reused aliases from whoever keeps them (the history store,
 * wired by the composition root). Declared here so jobs/ imports no store.
 */

/** One subagent asking for its alias: its key (`<seat id>|<native id>`) and its recorded type. */
export interface AliasRequest {
  key: string;
  type: string | null;
}

/** The port: every requested key's alias, issued once and kept (rules A1–A3 of main/core/history/aliasRules.ts). */
export interface JobAliases {
  aliasesFor(requests: readonly AliasRequest[]): Promise<ReadonlyMap<string, string>>;
}
