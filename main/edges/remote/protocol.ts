/**
 * The `serve --stdio` protocol: the WebSocket's messages, one per line, after a hello each way that names the
 * contract version. Requests `{ id, channel, payload }`, answers `{ id, ok, value | error }`, events `{ event, payload }`.
 */
import { z } from 'zod';
import { CONTRACT_VERSION } from '../../../shared/contract';

/** The first frame each end sends. */
export const HelloSchema = z.object({
  hello: z.object({ contract: z.number().int(), app: z.string().max(64) }),
});
export type Hello = z.infer<typeof HelloSchema>;

/** The hello of this build. */
export function helloFrame(app: string): Hello {
  return { hello: { contract: CONTRACT_VERSION, app } };
}

/** The sentence that refuses a peer of another contract version, naming both versions. */
export function versionMismatch(remote: { contract: number; app: string }, local: { contract: number; app: string }): string {
  return `the remote speaks contract version ${remote.contract} (Pixelfleet ${remote.app}) but this host speaks contract version ${local.contract} (Pixelfleet ${local.app}); install the same Pixelfleet version on both machines`;
}

/** A peer's first frame judged against this build: its hello, or why it is refused. */
export type HelloCheck = { ok: true; hello: Hello['hello'] } | { ok: false; kind: 'not-hello' } | { ok: false; kind: 'mismatch'; mismatch: string; peer: Hello['hello'] };

/**
 * The hello check both ends make of the other's first frame. The mismatch sentence is always told from the host's
 * side (the remote is the `serve --stdio` end), so `peer` says which of the two sent the frame.
 */
export function checkHello(frame: Record<string, unknown>, app: string, peer: 'remote' | 'host'): HelloCheck {
  const hello = HelloSchema.safeParse(frame);
  if (!hello.success) return { ok: false, kind: 'not-hello' };
  if (hello.data.hello.contract !== CONTRACT_VERSION) {
    const local = { contract: CONTRACT_VERSION, app };
    return { ok: false, kind: 'mismatch', mismatch: peer === 'remote' ? versionMismatch(hello.data.hello, local) : versionMismatch(local, hello.data.hello), peer: hello.data.hello };
  }
  return { ok: true, hello: hello.data.hello };
}
