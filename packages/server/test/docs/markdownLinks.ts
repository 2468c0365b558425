/** Links and heading anchors of a Markdown file, read as GitHub renders them. */
import { dirname, resolve } from 'node:path';

/** The text outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a file's headings, in order, repeats numbered as GitHub numbers them. */
export function headingSlugs(text: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of prose(text)) {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (match === null) continue;
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const line of prose(text)) {
    for (const anchor of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) slugs.add(anchor[1] ?? '');
  }
  return slugs;
}

/** The targets of a file's inline links and images, code spans and blocks left out. */
export function markdownLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of prose(text)) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(
      /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    ))
      links.push(match[1] ?? '');
  }
  return links;
}

/**
 * The relative links of `file` that lead nowhere: a missing file, or an anchor its target has
 * no heading for. `read` gives a file's text, or null when there is no such file.
 */
export function brokenLinks(
  file: string,
  text: string,
  read: (path: string) => string | null,
): string[] {
  const broken: string[] = [];
  for (const link of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [path = '', anchor] = link.split('#', 2);
    const target = path === '' ? file : resolve(dirname(file), decodeURI(path));
    const targetText = path === '' ? text : read(target);
    if (targetText === null) {
      // A folder link (docs/images/) is fine when the folder holds something readable.
      if (!path.endsWith('/')) broken.push(`${link} (no such file)`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && target.endsWith('.md')) {
      if (!headingSlugs(targetText).has(decodeURIComponent(anchor)))
        broken.push(`${link} (no heading "${anchor}")`);
    }
  }
  return broken;
}
