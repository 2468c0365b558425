// Refuses a source file over 500 lines and a function (or class) over 250 lines in the sources of
// packages/*/src (docs/architecture.md#sizes). Tests are left out: `*.test.ts(x)` files and the
// suites shared by several drivers (the files that import `vitest`, such as storage/contract/).
//
// A function is what the TypeScript compiler API calls one: a declaration, an expression, an
// arrow, a method, an accessor or a constructor; a class counts as one unit too, since its
// methods share its state as a factory's inner functions share their closure. Its lines run from
// its first token to its last, comments above it left out and the functions inside it counted.
// The allow-list below names the data tables and the one facade that may be longer, each with
// its reason. Usage: `node scripts/sizes.js [root]`; exits 1 and prints each refusal.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './cycles.js';

/**
 * The compiler, loaded with `require`: an `import` of its 9 MB CommonJS file makes Node scan it
 * for ES syntax and for its export names first, which costs more than loading it (this script
 * runs in lint and several times in the tests).
 * @type {typeof import('typescript')}
 */
const ts = createRequire(import.meta.url)('typescript');

export const MAX_FILE_LINES = 500;
/** A test suite's import of its runner. */
const VITEST = /^import [^;]*from 'vitest';$/m;
export const MAX_FUNCTION_LINES = 250;

/**
 * Files that may pass `MAX_FILE_LINES`: tables of data, read row by row, and the facade whose
 * length is the reference SDK's surface. Paths from the repository root, `/`-separated.
 * @type {Record<string, string>}
 */
export const FILE_ALLOW = {
  'packages/protocol/src/errors.ts': 'the error catalogue: one row per platform error',
  'packages/server/src/storage/sql/schema.ts': 'the table definitions: one entry per table',
  'packages/sdk/src/client.ts': 'the Client facade: one method per reference SDK operation',
};

/**
 * Functions (`path#name`) that may pass `MAX_FUNCTION_LINES`.
 * @type {Record<string, string>}
 */
export const FUNCTION_ALLOW = {
  'packages/sdk/src/client.ts#Client': 'the facade: one delegating method per SDK operation',
};

/**
 * The name a function-like node goes by: its own, or the variable, property or assignment that
 * holds it; `<anonymous>` when nothing names it.
 * @param {ts.Node} node
 * @returns {string}
 */
function nameOf(node) {
  const named = /** @type {{ name?: ts.Node }} */ (node).name;
  if (named && (ts.isIdentifier(named) || ts.isPrivateIdentifier(named))) return named.text;
  if (named && ts.isStringLiteralLike(named)) return named.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return ts.isIdentifier(parent.name) ? parent.name.text : '<anonymous>';
  }
  if (ts.isBinaryExpression(parent) && ts.isPropertyAccessExpression(parent.left)) {
    return parent.left.name.text;
  }
  if (ts.isExportAssignment(parent)) return 'default';
  return '<anonymous>';
}

/** @param {ts.Node} node */
function isUnit(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node)
  );
}

/**
 * The lines of the file and of every function or class in it.
 * @param {string} fileName
 * @param {string} text
 * @returns {{ lines: number, units: { name: string, line: number, lines: number }[] }}
 */
export function measure(fileName, text) {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (/** @type {number} */ pos) => file.getLineAndCharacterOfPosition(pos).line;
  /** @type {{ name: string, line: number, lines: number }[]} */
  const units = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (isUnit(node)) {
      const start = lineOf(node.getStart(file));
      units.push({ name: nameOf(node), line: start + 1, lines: lineOf(node.end) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const lines = text.length === 0 ? 0 : text.replace(/\n$/, '').split('\n').length;
  return { lines, units };
}

/**
 * Every refusal for the sources of `root/packages/*\/src`, as one line each.
 * @param {string} root
 * @returns {string[]}
 */
export function refusals(root) {
  const packagesDir = join(root, 'packages');
  /** @type {string[]} */
  const found = [];
  for (const pkg of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(src)) continue;
    for (const path of sourceFiles(src).sort()) {
      const rel = relative(root, path).split(sep).join('/');
      const text = readFileSync(path, 'utf8');
      if (VITEST.test(text)) continue;
      const { lines, units } = measure(path, text);
      if (lines > MAX_FILE_LINES && !(rel in FILE_ALLOW)) {
        found.push(
          `${rel}: ${lines} lines (at most ${MAX_FILE_LINES}): split it by what its parts do`,
        );
      }
      for (const unit of units) {
        if (unit.lines > MAX_FUNCTION_LINES && !(`${rel}#${unit.name}` in FUNCTION_ALLOW)) {
          found.push(
            `${rel}:${unit.line}: ${unit.name} is ${unit.lines} lines (at most ${MAX_FUNCTION_LINES}): move its parts into modules built from the same deps`,
          );
        }
      }
    }
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const found = refusals(root);
  for (const line of found) process.stdout.write(`${line}\n`);
  if (found.length > 0) {
    process.stdout.write(
      `${found.length} over the size limits (docs/architecture.md#sizes; allow-list in scripts/sizes.js).\n`,
    );
    process.exitCode = 1;
  }
}
