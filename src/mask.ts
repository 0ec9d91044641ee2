// Masking secrets in text a user will see: the API key, webhook secrets, proxy credentials.
// One home for the rule, below every layer (api, commands), with no imports of its own.
//
// Mask first, then cut: text from outside is shortened for display (a 200-character error
// line), and a secret cut in two no longer matches itself — its first part would show.

/** Secrets shorter than this are not masked (they would mask ordinary words). */
const MIN_SECRET = 4;

/** The proxy variables undici's EnvHttpProxyAgent reads (exchange.ts), whose credentials are masked. */
export const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

export type Mask = (text: string) => string;

/** Replaces every occurrence of each secret with "****", the longest secrets first. */
export function masker(secrets: readonly (string | undefined)[]): Mask {
  const list = [...new Set(secrets)]
    .filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET)
    .sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join('****');
    return out;
  };
}

/**
 * The passwords of proxy URLs in the environment, as given and decoded. (Not the user names:
 * masking a name like "user" would mangle ordinary words, and a name is not a secret.)
 */
export function proxyCredentials(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const name of PROXY_VARS) {
    const value = env[name];
    if (!value) continue;
    let u: URL;
    try {
      u = new URL(value.includes('://') ? value : `http://${value}`);
    } catch {
      continue;
    }
    if (!u.password) continue;
    out.push(u.password);
    try {
      out.push(decodeURIComponent(u.password));
    } catch {
      // Not valid percent-encoding: the raw form is masked already.
    }
  }
  return out;
}
