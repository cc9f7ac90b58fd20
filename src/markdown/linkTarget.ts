/** What the link confirmation names: the host a click would send the address to, and the address. */
export interface LinkTarget {
  host: string;
  href: string;
}

export function linkTarget(href: string): LinkTarget | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return { host: url.pathname.split('@').pop() || url.pathname, href: url.href };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { host: url.host, href: url.href };
}
