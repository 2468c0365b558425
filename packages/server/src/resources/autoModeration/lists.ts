/**
 * @module resources/autoModeration/lists: keyword and allow lists compiled once, so that a text
 * is matched against a whole list in one pass: a map of the whole words, a trie of the word
 * beginnings (`cat*`), one of the reversed word endings (`*cat`), and an Aho-Corasick automaton of
 * what may be anywhere in a word (`*cat*`) or is more than one word (`bad word`, `discord.gg/`).
 * A word is a run of letters, digits and `_` (code points, not UTF-16 units).
 */

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, code) =>
  /\w/.test(String.fromCharCode(code)) ? 1 : 0,
);

/** 1 for each UTF-16 unit of `text` that belongs to a word character, 0 for the others. */
export function wordFlags(text: string): Uint8Array {
  const flags = new Uint8Array(text.length);
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      flags[i] = ASCII_WORD[code] ?? 0;
      i += 1;
      continue;
    }
    const point = text.codePointAt(i) ?? code;
    const width = point > 0xffff ? 2 : 1;
    if (WORD_CHAR.test(String.fromCodePoint(point))) flags.fill(1, i, i + width);
    i += width;
  }
  return flags;
}

/** A keyword or allow-list entry as typed, split into its text and its wildcards. */
export interface ListEntry {
  /** As typed: the keyword an alert names. */
  raw: string;
  /** Lower-cased, without its asterisks. */
  text: string;
  /** `*` before the text: the word may begin earlier. */
  openStart: boolean;
  /** `*` after the text: the word may go on. */
  openEnd: boolean;
  /** Its place in the list: where several entries match, the first of the list is reported. */
  index: number;
}

export function parseEntry(raw: string, index: number): ListEntry {
  const openStart = raw.startsWith('*');
  const openEnd = raw.length > 1 && raw.endsWith('*');
  const text = raw.slice(openStart ? 1 : 0, openEnd ? -1 : undefined).toLowerCase();
  return { raw, text, openStart, openEnd, index };
}

/** Whether an entry's text is one word, so that it is matched word by word. */
export const isOneWord = (text: string): boolean =>
  text.length > 0 && wordFlags(text).every((flag) => flag === 1);

/** Edges are keyed by node × EDGE + UTF-16 unit, in one map per structure. */
const EDGE = 0x10000;

/** A trie of texts; each node knows the lowest entry index ending there. */
class Trie {
  readonly edges = new Map<number, number>();
  /** Per node, the lowest index of an entry whose text ends there (Infinity: none). */
  readonly own: number[] = [Infinity];
  /** Per node, its children (to walk the trie breadth first). */
  readonly children: number[][] = [[]];
  /** Per node, the UTF-16 unit of the edge into it. */
  readonly unit: number[] = [0];

  get size(): number {
    return this.own.length - 1;
  }

  /** Adds a text (its units in the order given); returns its last node. */
  insert(units: Iterable<number>, index: number): number {
    let node = 0;
    for (const unit of units) {
      let next = this.edges.get(node * EDGE + unit);
      if (next === undefined) {
        next = this.own.length;
        this.edges.set(node * EDGE + unit, next);
        this.own.push(Infinity);
        this.children.push([]);
        this.unit.push(unit);
        this.children[node]?.push(next);
      }
      node = next;
    }
    this.own[node] = Math.min(this.own[node] ?? Infinity, index);
    return node;
  }

  child(node: number, unit: number): number | undefined {
    return this.edges.get(node * EDGE + unit);
  }
}

/** A text's UTF-16 units, in order or from its end. */
const unitsOf = (text: string, reversed: boolean): number[] =>
  Array.from({ length: text.length }, (_, i) =>
    text.charCodeAt(reversed ? text.length - 1 - i : i),
  );

/**
 * Aho-Corasick over a set of texts: one step per unit of the searched text, whatever the number
 * of texts. Each node knows the lowest index of the texts ending there or at one of its suffixes,
 * and the entries ending there, reached through its dictionary suffix link.
 */
export class Automaton {
  readonly #trie = new Trie();
  #fail: Int32Array = new Int32Array(1);
  /** The lowest entry index among all texts that end at a node. */
  #through: number[] = [];
  /** Per node, the nearest node on its suffix chain that ends entries (0: none). */
  #dictionary: Int32Array = new Int32Array(1);
  /** Per node, the entries whose text ends there, by index. */
  readonly #entries = new Map<number, ListEntry[]>();

  constructor(entries: readonly ListEntry[]) {
    for (const entry of entries) {
      if (entry.text === '') continue;
      const node = this.#trie.insert(unitsOf(entry.text, false), entry.index);
      const list = this.#entries.get(node) ?? [];
      list.push(entry);
      this.#entries.set(node, list);
    }
    this.#link();
  }

  get empty(): boolean {
    return this.#trie.size === 0;
  }

  /** Fail and dictionary links, breadth first. */
  #link(): void {
    const trie = this.#trie;
    const count = trie.own.length;
    this.#fail = new Int32Array(count);
    this.#dictionary = new Int32Array(count);
    this.#through = [...trie.own];
    // The root's children fail to the root; a queue that grows as it is read (for-of sees it).
    const queue = [...(trie.children[0] ?? [])];
    for (const node of queue) {
      for (const child of trie.children[node] ?? []) {
        const unit = trie.unit[child] ?? 0;
        // The longest proper suffix of the child's text that is in the trie.
        let fail = this.#fail[node] ?? 0;
        let target = trie.child(fail, unit);
        while (target === undefined && fail !== 0) {
          fail = this.#fail[fail] ?? 0;
          target = trie.child(fail, unit);
        }
        const link = target ?? 0;
        this.#fail[child] = link;
        this.#through[child] = Math.min(
          trie.own[child] ?? Infinity,
          this.#through[link] ?? Infinity,
        );
        this.#dictionary[child] = this.#entries.has(link) ? link : (this.#dictionary[link] ?? 0);
        queue.push(child);
      }
    }
  }

  /** The node after reading `unit` from `node`. */
  step(node: number, unit: number): number {
    for (let at = node; ; at = this.#fail[at] ?? 0) {
      const next = this.#trie.child(at, unit);
      if (next !== undefined) return next;
      if (at === 0) return 0;
    }
  }

  /** The lowest index of the texts that end at `node` (Infinity: none). */
  lowest(node: number): number {
    return this.#through[node] ?? Infinity;
  }

  /** The entries that end at `node`, longest text first, each list by index. */
  *endingAt(node: number): Generator<readonly ListEntry[]> {
    let at = this.#entries.has(node) ? node : (this.#dictionary[node] ?? 0);
    while (at !== 0) {
      yield this.#entries.get(at) ?? [];
      at = this.#dictionary[at] ?? 0;
    }
  }
}

/**
 * One-word entries, matched against one word of a text: the lowest index among the entries that
 * match it, in time linear in the word whatever the size of the list.
 */
export class WordMatcher {
  readonly #whole = new Map<string, number>();
  readonly #starts = new Trie();
  readonly #ends = new Trie();
  readonly #within: Automaton;

  /** `entries` must be one-word entries (see {@link isOneWord}). */
  constructor(entries: readonly ListEntry[]) {
    for (const entry of entries) {
      if (entry.text === '') continue;
      if (!entry.openStart && !entry.openEnd) {
        this.#whole.set(entry.text, Math.min(this.#whole.get(entry.text) ?? Infinity, entry.index));
      } else if (!entry.openStart) {
        this.#starts.insert(unitsOf(entry.text, false), entry.index);
      } else if (!entry.openEnd) {
        this.#ends.insert(unitsOf(entry.text, true), entry.index);
      }
    }
    this.#within = new Automaton(entries.filter((e) => e.openStart && e.openEnd));
  }

  get empty(): boolean {
    return (
      this.#whole.size === 0 &&
      this.#starts.size === 0 &&
      this.#ends.size === 0 &&
      this.#within.empty
    );
  }

  /** The lowest index of an entry matching the word `lower[start, end)`; Infinity for none. */
  lowest(lower: string, start: number, end: number): number {
    let best = Infinity;
    if (this.#whole.size > 0) best = this.#whole.get(lower.slice(start, end)) ?? Infinity;
    const starts = this.#starts;
    let node: number | undefined = 0;
    for (let i = start; i < end && starts.size > 0; i += 1) {
      node = starts.child(node, lower.charCodeAt(i));
      if (node === undefined) break;
      best = Math.min(best, starts.own[node] ?? Infinity);
    }
    const ends = this.#ends;
    node = 0;
    for (let i = end - 1; i >= start && ends.size > 0; i -= 1) {
      node = ends.child(node, lower.charCodeAt(i));
      if (node === undefined) break;
      best = Math.min(best, ends.own[node] ?? Infinity);
    }
    const within = this.#within;
    if (!within.empty) {
      let state = 0;
      for (let i = start; i < end; i += 1) {
        state = within.step(state, lower.charCodeAt(i));
        best = Math.min(best, within.lowest(state));
      }
    }
    return best;
  }
}
