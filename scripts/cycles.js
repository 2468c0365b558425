// Refuses import cycles among the sources of packages/*/src, counting type-only imports.
//
// `import-x/no-cycle` leaves `import type` out, since it is erased at build time; but a type
// import still ties two modules together (one cannot be read, moved or tested without the
// other), so this check counts every edge: `import`, `import type`, `export … from`,
// `import x = require()` and `import('…')` types and calls. Paths resolve as TypeScript resolves
// them, with each package's own module resolution. Usage: `node scripts/cycles.js [root]`;
// exits 1 and prints each cycle's files when there is one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The compiler, loaded with `require`: an `import` of its 9 MB CommonJS file makes Node scan it
 * for ES syntax and for its export names first, which costs more than loading it (this script
 * runs in lint and several times in the tests).
 * @type {typeof import('typescript')}
 */
const ts = createRequire(import.meta.url)('typescript');

const SOURCE = /\.tsx?$/;
const SKIPPED = /\.(test|spec)\.tsx?$|\.d\.ts$/;

/**
 * The source files under `dir`, tests and declaration files left out.
 * @param {string} dir
 * @returns {string[]}
 */
export function sourceFiles(dir) {
  /** @type {string[]} */
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name) && !SKIPPED.test(entry.name)) files.push(path);
  }
  return files;
}

/**
 * Every module specifier `text` names: imports and exports, type-only or not, `require` and
 * `import()` (as a call or a type).
 * @param {string} fileName
 * @param {string} text
 * @returns {string[]}
 */
export function specifiers(fileName, text) {
  // A .ts file's with the compiler's import scanner, which reads tokens without building a tree:
  // a fifth of the time of a parse, and the parses were most of a run. It also names `require()`
  // calls and `declare module` augmentations, which tie files as much. A .tsx file is parsed:
  // the scanner would read its JSX text (an apostrophe in a sentence) as code.
  if (!fileName.endsWith('.tsx')) {
    return ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
  }
  const kind = ts.ScriptKind.TSX;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {string[]} */
  const found = [];
  /** @param {ts.Node | undefined} node */
  const literal = (node) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      literal(node.moduleSpecifier);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      literal(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      literal(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The strongly connected components of more than one file (or of a file importing itself), by
 * Tarjan's algorithm, iteratively (the graph is deep enough to overflow a recursive one).
 * Each component's files are sorted, and the components by their first file.
 * @param {Map<string, Set<string>>} graph file → the files it imports
 * @returns {string[][]}
 */
export function cycles(graph) {
  let next = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    /** @type {{ node: string, edges: Iterator<string> }[]} */
    const work = [];
    const open = (/** @type {string} */ node) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set()).values() });
    };
    open(start);
    while (work.length > 0) {
      const frame = /** @type {{ node: string, edges: Iterator<string> }} */ (work.at(-1));
      const step = frame.edges.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) {
          low.set(frame.node, Math.min(Number(low.get(frame.node)), Number(index.get(to))));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) {
        low.set(parent.node, Math.min(Number(low.get(parent.node)), Number(low.get(frame.node))));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      /** @type {string[]} */
      const component = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) {
        found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * The compiler options of the package at `dir` (its tsconfig.json, or NodeNext).
 * @param {string} dir
 * @returns {ts.CompilerOptions}
 */
function optionsOf(dir) {
  const config = join(dir, 'tsconfig.json');
  if (!existsSync(config)) {
    return { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  }
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  return parsed?.options ?? {};
}

/**
 * The import graph of the sources of every package under `root/packages` (`src/`), type-only
 * imports counted. An import of another workspace package counts as an import of its source
 * (`dist/x.d.ts` → `src/x.ts`).
 * @param {string} root
 * @returns {Map<string, Set<string>>}
 */
export function importGraph(root) {
  const packagesDir = join(root, 'packages');
  /** @type {Map<string, Set<string>>} */
  const graph = new Map();
  /** @param {string} path */
  const toSource = (path) => {
    const rel = relative(packagesDir, path);
    if (rel.startsWith('..')) return undefined;
    const [pkg, top, ...rest] = rel.split(sep);
    if (pkg === undefined || top === 'src') return path;
    if (top !== 'dist') return undefined;
    const base = join(packagesDir, pkg, 'src', ...rest).replace(/(\.d)?\.[cm]?[jt]sx?$/, '');
    return [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
  };
  for (const pkg of readdirSync(packagesDir)) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(src)) continue;
    const options = optionsOf(join(packagesDir, pkg));
    const cache = ts.createModuleResolutionCache(join(packagesDir, pkg), (name) => name, options);
    for (const file of sourceFiles(src)) {
      /** @type {Set<string>} */
      const edges = new Set();
      for (const specifier of specifiers(file, readFileSync(file, 'utf8'))) {
        const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache);
        const target = resolved.resolvedModule?.resolvedFileName;
        const source = target === undefined ? undefined : toSource(resolve(target));
        if (source !== undefined && SOURCE.test(source) && !SKIPPED.test(source)) {
          edges.add(source);
        }
      }
      graph.set(file, edges);
    }
  }
  return graph;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const graph = importGraph(root);
  const found = cycles(graph);
  for (const [i, component] of found.entries()) {
    process.stdout.write(`cycle ${i + 1}: ${component.length} files\n`);
    for (const file of component) process.stdout.write(`  ${relative(root, file)}\n`);
  }
  if (found.length > 0) {
    process.stdout.write(
      `${found.length} import cycles among ${graph.size} files, type-only imports counted.\n`,
    );
    process.exitCode = 1;
  }
}
