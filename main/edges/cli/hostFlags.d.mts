/** Node's own flags for a process that runs a host (see hostFlags.mjs). */
export declare const HOST_NODE_FLAGS: readonly string[];
