/** The checks browser mode applies to every request: the token, the Host header and the Origin. */
import { timingSafeEqual, randomBytes } from 'node:crypto';
import { contentSecurityPolicy } from '../transport/csp';

/** A fresh random token for one run of the host (192 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time token comparison. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The origins the page itself is served from (a foreign page may not open the socket). */
export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** True when the Host header names this server on loopback (defeats DNS rebinding). */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The Content-Security-Policy of the page: sockets only to this loopback host. */
export function hostContentSecurityPolicy(port: number): string {
  return contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);
}
