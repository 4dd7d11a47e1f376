/** Named bounds of remotes (issue 28): the stdio stream, reconnects and requests. */

/** The largest frame (one JSON line) either end of `serve --stdio` accepts, in bytes. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The first wait before reconnecting to a remote that dropped, in milliseconds; it doubles per failure. */
export const RECONNECT_MIN_MS = 1000;
/** The longest wait between reconnects, in milliseconds. */
export const RECONNECT_MAX_MS = 60_000;
/** How long a request routed to a remote may take before it fails as unreachable, in milliseconds. */
export const REMOTE_REQUEST_TIMEOUT_MS = 30_000;
/** How long the hello may take after ssh started, in milliseconds (ssh itself may take a while to connect). */
export const HELLO_TIMEOUT_MS = 20_000;
/** How long a one-shot CLI command waits for each remote's first snapshot, in milliseconds. */
export const CLI_REMOTE_WAIT_MS = 15_000;
/** Characters of a remote's stderr kept to explain why it failed. */
export const STDERR_TAIL_CHARS = 400;
/** Most remotes one home may list. */
export const MAX_REMOTES = 32;
/** How often a running host re-reads `remotes.json` in case a watch event was missed, in milliseconds. */
export const REMOTES_POLL_MS = 2000;
/** Most frames a remote may send in one second before the host cuts it as flooding (a busy fleet sends tens). */
export const MAX_REMOTE_FRAMES_PER_SECOND = 5000;
