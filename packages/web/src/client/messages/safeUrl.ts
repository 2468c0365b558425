/**
 * A URL from user content or the API made safe to put in href/src: only http(s), resolved against
 * the page (relative API paths), else null (javascript:, data:, vbscript: and the like).
 */
export function safeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw, location.href);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
