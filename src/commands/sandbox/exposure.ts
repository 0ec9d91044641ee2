// `sched sandbox --host <non-loopback>`: the sandbox becomes reachable from other machines. Its
// default API key is fixed and documented (public), and it delivers to whatever webhook URLs are
// registered — internal addresses included. So: refuse the default key there unless the risk is
// accepted by name, and always say what listening there means.
import { UsageError } from '../../errors.js';
import { isLoopback } from '../../api/url.js';

export interface ExposureOptions {
  host: string;
  /** --api-key, when given. */
  apiKey: string | undefined;
  /** --insecure-default-key. */
  insecureDefaultKey: boolean;
}

/**
 * Throws a UsageError (exit 2) for a non-loopback host with the public default key and no
 * --insecure-default-key; returns the warning lines to print on stderr (none on loopback).
 */
export function sandboxExposure(o: ExposureOptions): string[] {
  if (isLoopback(o.host)) return [];
  if (o.apiKey === undefined && !o.insecureDefaultKey) {
    throw new UsageError(
      `--host ${o.host} lets other machines reach the sandbox, and its default API key is public`,
      {
        hint: 'give a key of your own with --api-key <key>, or accept the risk with --insecure-default-key',
      },
    );
  }
  return [
    `warning: the sandbox listens on ${o.host}: other machines on the network can reach it` +
      (o.apiKey === undefined ? ', with the public default key' : ''),
    'warning: it delivers webhooks to any registered URL, internal addresses included; do not expose it to untrusted networks',
  ];
}
