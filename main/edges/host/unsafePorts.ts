/**
 * Ports the browser refuses to load a page from (the Fetch standard's "bad ports", which Chromium enforces): a host
 * listening on one would print an address no page can open, so `--port` refuses them up front (issue 36).
 */

/** The bad ports of the Fetch standard. */
export const BROWSER_UNSAFE_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20,
  21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135,
  137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601,
  636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** Why a page could not be opened on this port, or null when the browser allows it (0: any free port). */
export function unsafePortReason(port: number): string | null {
  if (port === 0 || !BROWSER_UNSAFE_PORTS.has(port)) return null;
  return `--port ${port} is a port browsers refuse to open pages on; pick another (for example 8080), or --port 0 for any free one.`;
}
