// @ts-check
/**
 * The ESLint rule behind the server's layers (eslint.config.js, docs/architecture.md): a file may
 * not import the top-level folders (`name/`) or files (`name.js`) of `packages/server/src` that
 * its block names. The specifier is resolved against the importing file, so `../voice/index.js`
 * from `resources/calls/` is the sibling resource `resources/voice`, not the `voice/` feature,
 * and `../index.js` is the parent folder's index, not `src/index.ts`. Only relative specifiers
 * can reach `src/`; package imports are other rules' business.
 *
 * Options: `{ forbid: string[] }`. Checked: imports, type imports and re-exports (`export … from`).
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'server', 'src');

/**
 * Where `specifier`, imported from `file`, lands under `packages/server/src` (a path with `/`),
 * or null when it is not relative or lands outside it.
 * @param {string} file
 * @param {string} specifier
 */
export function srcPathOf(file, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const target = relative(SRC, resolve(dirname(file), specifier));
  if (target === '' || target.startsWith('..') || target.startsWith(sep)) return null;
  return target.split(sep).join('/');
}

/**
 * Whether `path` (from {@link srcPathOf}) is one of `names`: under a folder `name/`, or the file
 * `name.js` itself.
 * @param {string} path
 * @param {readonly string[]} names
 */
export function isForbidden(path, names) {
  return names.some((name) => (name.endsWith('/') ? path.startsWith(name) : path === name));
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layers of packages/server/src.' },
    schema: [
      {
        type: 'object',
        properties: { forbid: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    /** @type {{ forbid?: string[] }} */
    const options = context.options[0] ?? {};
    const forbid = options.forbid ?? [];
    if (forbid.length === 0) return {};
    const message = `This layer may not import ${forbid.join(', ')}: imports point down the layers (docs/architecture.md).`;
    /** @param {import('estree').Node & { value?: unknown }} source */
    const check = (source) => {
      if (typeof source.value !== 'string') return;
      const path = srcPathOf(context.filename, source.value);
      if (path !== null && isForbidden(path, forbid)) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => {
        check(node.source);
      },
      ExportNamedDeclaration: (node) => {
        if (node.source) check(node.source);
      },
      ExportAllDeclaration: (node) => {
        check(node.source);
      },
    };
  },
};
