/**
 * Every relative link in README.md and docs/ points at a file that exists, and every `#anchor`
 * at a heading of its target (GitHub's slugs), so the docs a newcomer follows have no dead ends.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingSlugs, markdownLinks } from './markdownLinks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

describe('markdown links', () => {
  it('finds GitHub slugs and links the way GitHub does', () => {
    const text = [
      '# Multi-node',
      '## The `inject` helper, before/after',
      '## Multi-node',
      'See [a](b.md#x), [c](#multi-node), ![img](images/p.png) and [web](https://x.y).',
      '```',
      '[not a link](nowhere.md)',
      '```',
    ].join('\n');
    expect([...headingSlugs(text)]).toEqual([
      'multi-node',
      'the-inject-helper-beforeafter',
      'multi-node-1',
    ]);
    expect(markdownLinks(text)).toEqual(['b.md#x', '#multi-node', 'images/p.png', 'https://x.y']);
  });

  it('reports a missing file and a missing anchor', () => {
    const files = new Map([
      ['/d/a.md', '# Top\n[ok](b.md#there) [bad](b.md#gone) [lost](c.md)'],
      ['/d/b.md', '## There'],
    ]);
    const read = (path: string) => files.get(path) ?? null;
    expect(brokenLinks('/d/a.md', files.get('/d/a.md') ?? '', read)).toEqual([
      'b.md#gone (no heading "gone")',
      'c.md (no such file)',
    ]);
  });

  it('README.md and docs/ have no broken relative link or anchor', () => {
    const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
    const read = (path: string) =>
      existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null;
    const broken = files.flatMap((file) =>
      brokenLinks(file, readFileSync(file, 'utf8'), read).map(
        (link) => `${relative(root, file)}: ${link}`,
      ),
    );
    expect(broken).toEqual([]);
  });
});
