/**
 * The path the router matches, with `.` and `..` segments (also percent-encoded ones, and `\` as `/`) resolved the
 * way a browser resolves them, so `/api/x/../admin/users` reaches the same route, and therefore the same access rule,
 * as `/api/admin/users`. Access never depends on this: the guard belongs to the route whatever the spelling. This
 * only keeps odd spellings from answering differently. The query string is kept as sent.
 */
export function resolveDotSegments(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // Fast path: nothing a browser would rewrite.
  if (!/[.\\]|%2e/i.test(path)) return url;
  let resolved: string;
  try {
    // Prefixed with an origin so a path starting with `//` stays a path rather than becoming a host.
    resolved = new URL(`http://h${path.startsWith('/') ? '' : '/'}${path}`).pathname;
  } catch {
    return url;
  }
  return q === -1 ? resolved : resolved + url.slice(q);
}
