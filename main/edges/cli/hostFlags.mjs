// Node's own flags for a process that runs a host (browser mode, `serve` behind a remote): the launcher's shebang
// and `npm run web` give them, and whatever starts `pixelfleet.mjs web` by hand passes these (a test keeps the three
// equal). `--max-semi-space-size=4` caps V8's young generation at 4 MiB a semi-space instead of 16: a host's work is
// short-lived objects (parsed lines, snapshots, patches) that die young, so the larger one only held garbage longer:
// at 100 demo agents, peak RSS was 128–134 MiB with the default and is 104–109 MiB with this, at the same CPU (issue 43).
export const HOST_NODE_FLAGS = ['--max-semi-space-size=4'];
