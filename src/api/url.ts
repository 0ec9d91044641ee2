// Small URL helpers shared by the exchange and the error wording.

/** Percent-encodes query pairs; the brackets of `sorting[name]` stay literal like the API docs. */
export function encodeQuery(query: Array<[string, string]> | undefined): string {
  if (!query || query.length === 0) return '';
  return (
    '?' +
    query
      .map(
        ([k, v]) =>
          encodeURIComponent(k).replace(/%5B/gi, '[').replace(/%5D/gi, ']') +
          '=' +
          encodeURIComponent(v),
      )
      .join('&')
  );
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/** The URL as it may be shown: user name and password dropped. */
export function showUrl(u: URL): string {
  const c = new URL(u.href);
  c.username = '';
  c.password = '';
  return c.href;
}
