/**
 * The platform's message markdown, parsed to a small tree the renderer turns into React elements
 * (never HTML strings). Rules as the platform's client applies them: code blocks and inline code
 * first (nothing inside them is markup), escapes, mentions, custom emoji, timestamps, links
 * (http(s) only), spoilers, bold, underline, italics, strikethrough; at the start of a line
 * headings (`#`, `##`, `###`), subtext (`-#`) and block quotes (`>` a line, `>>>` the rest).
 * Hostile input is bounded: nesting stops at MAX_DEPTH and every rule is a sticky regex tried at
 * one position, so a message of any shape parses in time about quadratic in its length at worst.
 */
export type MdNode =
  | { type: 'text'; text: string }
  | { type: 'br' }
  | { type: 'strong' | 'em' | 'u' | 's' | 'spoiler'; children: MdNode[] }
  | { type: 'inlineCode'; text: string }
  | { type: 'codeBlock'; lang: string | null; text: string }
  | { type: 'blockquote'; children: MdNode[] }
  | { type: 'heading'; level: 1 | 2 | 3; children: MdNode[] }
  | { type: 'subtext'; children: MdNode[] }
  | { type: 'link'; url: string; children: MdNode[] }
  | { type: 'userMention'; id: string }
  | { type: 'roleMention'; id: string }
  | { type: 'channelMention'; id: string }
  | { type: 'everyone'; which: 'everyone' | 'here' }
  | { type: 'emoji'; id: string; name: string; animated: boolean }
  | { type: 'timestamp'; seconds: number; style: string };

export const MAX_DEPTH = 8;

interface InlineRule {
  re: RegExp;
  /** Whether the rule may start here (`_` italics need a non-word character before them). */
  when?: (source: string, pos: number) => boolean;
  node: (m: RegExpExecArray, depth: number) => MdNode | MdNode[];
}

const WORD = /\w/u;
const notAfterWord = (source: string, pos: number) =>
  pos === 0 || !WORD.test(source[pos - 1] ?? '');

function nested(type: 'strong' | 'em' | 'u' | 's' | 'spoiler') {
  return (m: RegExpExecArray, depth: number): MdNode => ({
    type,
    children: parseInline(m[1] ?? '', depth + 1),
  });
}

/** A link's target when it is http(s), else null (then the text stays text). */
function httpUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const INLINE_RULES: InlineRule[] = [
  {
    re: /```(?:([A-Za-z0-9_+#.-]{1,32})\n)?\n?([\s\S]*?)```/uy,
    node: (m) => ({
      type: 'codeBlock',
      lang: m[1] ?? null,
      text: (m[2] ?? '').replace(/\n$/u, ''),
    }),
  },
  {
    re: /(`+)([\s\S]*?[^`])\1(?!`)/uy,
    node: (m) => ({ type: 'inlineCode', text: m[2] ?? '' }),
  },
  { re: /\\([^0-9A-Za-z\s])/uy, node: (m) => ({ type: 'text', text: m[1] ?? '' }) },
  { re: /<@!?(\d{1,20})>/uy, node: (m) => ({ type: 'userMention', id: m[1] ?? '' }) },
  { re: /<@&(\d{1,20})>/uy, node: (m) => ({ type: 'roleMention', id: m[1] ?? '' }) },
  { re: /<#(\d{1,20})>/uy, node: (m) => ({ type: 'channelMention', id: m[1] ?? '' }) },
  {
    re: /<(a?):(\w{2,32}):(\d{1,20})>/uy,
    node: (m) => ({ type: 'emoji', animated: m[1] === 'a', name: m[2] ?? '', id: m[3] ?? '' }),
  },
  {
    re: /<t:(-?\d{1,13})(?::([tTdDfFR]))?>/uy,
    node: (m) => ({ type: 'timestamp', seconds: Number(m[1]), style: m[2] ?? 'f' }),
  },
  {
    re: /@(everyone|here)/uy,
    node: (m) => ({ type: 'everyone', which: m[1] === 'here' ? 'here' : 'everyone' }),
  },
  {
    // A masked link: [text](url) or [text](<url>); the text may not itself hold a link.
    re: /\[([^[\]\n]{1,256})\]\(<?(https?:\/\/[^\s<>()]{1,2048})>?\)/uy,
    node: (m, depth) => {
      const url = httpUrl(m[2] ?? '');
      if (url === null) return { type: 'text', text: m[0] };
      const children = parseInline(m[1] ?? '', depth + 1).map((n): MdNode =>
        n.type === 'link' ? { type: 'text', text: n.url } : n,
      );
      return { type: 'link', url, children };
    },
  },
  {
    re: /<(https?:\/\/[^\s<>]{1,2048})>/uy,
    node: (m) => {
      const url = httpUrl(m[1] ?? '');
      return url === null
        ? { type: 'text', text: m[0] }
        : { type: 'link', url, children: [{ type: 'text', text: m[1] ?? '' }] };
    },
  },
  {
    // A bare link ends before trailing punctuation, as the platform's autolinker does.
    re: /https?:\/\/[^\s<]{1,2048}[^\s<.,:;"')\]!?*_~|]/uy,
    when: notAfterWord,
    node: (m) => {
      const url = httpUrl(m[0]);
      return url === null
        ? { type: 'text', text: m[0] }
        : { type: 'link', url, children: [{ type: 'text', text: m[0] }] };
    },
  },
  { re: /\|\|([\s\S]+?)\|\|/uy, node: nested('spoiler') },
  { re: /\*\*([\s\S]+?)\*\*(?!\*)/uy, node: nested('strong') },
  { re: /__([\s\S]+?)__(?!_)/uy, node: nested('u') },
  { re: /\*(?=\S)([\s\S]*?\S)\*(?!\*)/uy, node: nested('em') },
  { re: /_([\s\S]+?)_(?!\w)/uy, when: notAfterWord, node: nested('em') },
  { re: /~~([\s\S]+?)~~/uy, node: nested('s') },
];

/** A run of characters that start no rule (the fast path through plain text). */
const PLAIN = /[^\\`<@[|*_~\nh]+/uy;

function pushText(out: MdNode[], text: string) {
  const last = out[out.length - 1];
  if (last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + text };
  else out.push({ type: 'text', text });
}

/** Inline markup (no headings or quotes), newlines as line breaks. */
export function parseInline(source: string, depth = 0): MdNode[] {
  const out: MdNode[] = [];
  if (depth > MAX_DEPTH) {
    pushText(out, source);
    return out;
  }
  let pos = 0;
  outer: while (pos < source.length) {
    if (source[pos] === '\n') {
      out.push({ type: 'br' });
      pos += 1;
      continue;
    }
    PLAIN.lastIndex = pos;
    const plain = PLAIN.exec(source);
    if (plain !== null) {
      pushText(out, plain[0]);
      pos += plain[0].length;
      continue;
    }
    for (const rule of INLINE_RULES) {
      if (rule.when !== undefined && !rule.when(source, pos)) continue;
      rule.re.lastIndex = pos;
      const m = rule.re.exec(source);
      if (m === null || m[0].length === 0) continue;
      const node = rule.node(m, depth);
      for (const n of Array.isArray(node) ? node : [node]) {
        if (n.type === 'text') pushText(out, n.text);
        else out.push(n);
      }
      pos += m[0].length;
      continue outer;
    }
    pushText(out, source[pos] ?? '');
    pos += 1;
  }
  return out;
}

const HEADING = /(#{1,3}) +(\S[^\n]*)(?:\n|$)/uy;
const SUBTEXT = /-# +(\S[^\n]*)(?:\n|$)/uy;
const QUOTE_REST = />>> ?([\s\S]*)$/uy;
const QUOTE_LINE = /> ?([^\n]*)(?:\n|$)/uy;

function lineStartBlock(source: string, pos: number): boolean {
  for (const re of [HEADING, SUBTEXT, QUOTE_REST, QUOTE_LINE]) {
    re.lastIndex = pos;
    if (re.test(source)) return true;
  }
  return false;
}

/**
 * Where a paragraph starting at `pos` ends: the next line that starts a block, outside a code
 * block (a fence's contents are never blocks).
 */
function paragraphEnd(source: string, pos: number): number {
  let i = pos;
  let inFence = false;
  while (i < source.length) {
    if (source.startsWith('```', i)) {
      inFence = !inFence;
      i += 3;
      continue;
    }
    if (source[i] === '\n' && !inFence && lineStartBlock(source, i + 1)) return i + 1;
    i += 1;
  }
  return source.length;
}

/** A whole message: blocks (quotes, headings, subtext) holding inline markup. */
export function parseMarkdown(source: string, depth = 0, inQuote = false): MdNode[] {
  const out: MdNode[] = [];
  let pos = 0;
  while (pos < source.length) {
    if (depth <= MAX_DEPTH) {
      HEADING.lastIndex = pos;
      const heading = HEADING.exec(source);
      if (heading !== null) {
        out.push({
          type: 'heading',
          level: (heading[1]?.length ?? 1) as 1 | 2 | 3,
          children: parseInline(heading[2] ?? '', depth + 1),
        });
        pos += heading[0].length;
        continue;
      }
      SUBTEXT.lastIndex = pos;
      const subtext = SUBTEXT.exec(source);
      if (subtext !== null) {
        out.push({ type: 'subtext', children: parseInline(subtext[1] ?? '', depth + 1) });
        pos += subtext[0].length;
        continue;
      }
      if (!inQuote) {
        QUOTE_REST.lastIndex = pos;
        const rest = QUOTE_REST.exec(source);
        if (rest !== null) {
          out.push({ type: 'blockquote', children: parseMarkdown(rest[1] ?? '', depth + 1, true) });
          pos = source.length;
          continue;
        }
        const lines: string[] = [];
        for (;;) {
          QUOTE_LINE.lastIndex = pos;
          const line = QUOTE_LINE.exec(source);
          if (line === null || line[0].length === 0 || source.startsWith('>>>', pos)) break;
          lines.push(line[1] ?? '');
          pos += line[0].length;
        }
        if (lines.length > 0) {
          out.push({
            type: 'blockquote',
            children: parseMarkdown(lines.join('\n'), depth + 1, true),
          });
          continue;
        }
      }
    }
    const end = paragraphEnd(source, pos);
    // The newline before a block belongs to neither: blocks start on their own line anyway.
    const text = source.slice(pos, end).replace(/\n$/u, end < source.length ? '' : '\n');
    for (const node of parseInline(text, depth)) {
      if (node.type === 'text') pushText(out, node.text);
      else out.push(node);
    }
    pos = end;
  }
  return out;
}
