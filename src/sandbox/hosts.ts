// DNS rebinding: a web page on evil.example can make its own name resolve to 127.0.0.1 and
// then read the sandbox (and its console) as if it were same-origin. The browser still sends
// `Host: evil.example`, so the sandbox answers only requests addressed to one of its own
// names: an IP address (no rebinding without a name), localhost, the address it listens on,
// the host of its public URL (a tunnel), and, listening on every interface, this machine's
// host name.
import { isIP } from 'node:net';
import { hostname } from 'node:os';

/** The host part of a Host header value, lower-cased, without port, brackets or final dot. */
export function hostOf(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.indexOf(':');
  return (colon < 0 ? h : h.slice(0, colon)).replace(/\.$/, '');
}

/** The names a sandbox listening on `listenHost` with `publicUrl` answers to. */
export function ownHostNames(listenHost: string, publicUrl: string): Set<string> {
  const names = new Set(['localhost', hostOf(listenHost)]);
  try {
    names.add(hostOf(new URL(publicUrl).host));
  } catch {
    // The public URL was checked before; nothing to add when it is not one.
  }
  if (listenHost === '' || listenHost === '0.0.0.0' || listenHost === '::') {
    names.add(hostname().toLowerCase());
  }
  return names;
}

/**
 * Whether a request's Host header names this sandbox. A request without one (HTTP/1.0, a raw
 * socket) passes: every browser sends it, and rebinding needs a browser.
 */
export function hostAllowed(header: string | undefined, names: ReadonlySet<string>): boolean {
  if (header === undefined) return true;
  const h = hostOf(header);
  return isIP(h) !== 0 || names.has(h);
}
