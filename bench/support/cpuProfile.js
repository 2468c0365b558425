/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time and
 * the most inclusive time (leaving out Node and Fastify frames), as shares of the busy samples
 * (idle and the profiler's own excluded).
 * Run alone: `node bench/support/cpuProfile.js <file.cpuprofile> [top]`.
 */
import console from 'node:console';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The newest .cpuprofile in `dir` (what `node --cpu-prof-dir=dir` wrote), or null. */
export async function latestProfile(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).sort();
  const last = files.at(-1);
  return last === undefined ? null : join(dir, last);
}

const NOT_BUSY = new Set(['(idle)', '(program)']);
/** Areas left out of the inclusive list: they wrap every request, so they top it uselessly. */
const FRAMEWORK_AREAS = new Set([
  'node internals',
  '(native)',
  '(root)',
  'fastify',
  'avvio',
  'find-my-way',
]);

function frameKey(callFrame) {
  const name = callFrame.functionName === '' ? '(anonymous)' : callFrame.functionName;
  if (callFrame.url === '') return name;
  const file = callFrame.url.startsWith('file://')
    ? relative(ROOT, fileURLToPath(callFrame.url))
    : callFrame.url;
  return `${name} ${file.replace(/^node_modules\//, '')}:${callFrame.lineNumber + 1}`;
}

/** Where a frame's code lives: a package, Guildhall's own dist, Node's internals, or V8. */
function areaOf(callFrame) {
  const { url, functionName } = callFrame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules !== null) return inModules[1];
  if (url.includes('/packages/server/dist/')) return 'guildhall server';
  if (url.includes('/packages/protocol/')) return 'guildhall protocol';
  return url.startsWith('file://') ? relative(ROOT, fileURLToPath(url)) : url;
}

function top(counts, total, limit) {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, samples]) => ({ name, samples, percent: (100 * samples) / total }));
}

/**
 * @param {object} profile a parsed .cpuprofile: `nodes` (id, callFrame, children) and `samples`
 * @param {number} limit how many rows per list
 */
export function summarizeCpuProfile(profile, limit = 20) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);

  const self = new Map();
  const inclusive = new Map();
  const areas = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (node === undefined || NOT_BUSY.has(node.callFrame.functionName)) continue;
    busy += 1;
    const key = frameKey(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + 1);
    const area = areaOf(node.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + 1);
    // Each function counts once per sample however deep it recurses.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined || FRAMEWORK_AREAS.has(areaOf(frame))) continue;
      seen.add(frameKey(frame));
    }
    for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + 1);
  }
  const total = Math.max(busy, 1);
  return {
    totalSamples: profile.samples.length,
    busySamples: busy,
    self: top(self, total, limit),
    inclusive: top(inclusive, total, limit),
    areas: top(areas, total, Math.min(limit, 12)),
  };
}

/** The summary as plain text columns. */
export function formatCpuProfileSummary(summary) {
  const rows = (list) => list.map((r) => `  ${r.percent.toFixed(1).padStart(5)}%  ${r.name}`);
  return [
    `${summary.busySamples} busy samples of ${summary.totalSamples}`,
    'Self time by area:',
    ...rows(summary.areas),
    'Self time by function:',
    ...rows(summary.self),
    'Inclusive time by function, outside Node and Fastify:',
    ...rows(summary.inclusive),
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, limit] = process.argv.slice(2);
  if (file === undefined || file === '--help') {
    console.log('Usage: node bench/support/cpuProfile.js <file.cpuprofile> [top=20]');
    process.exit(file === undefined ? 2 : 0);
  }
  const profile = JSON.parse(await readFile(file, 'utf8'));
  console.log(formatCpuProfileSummary(summarizeCpuProfile(profile, Number(limit ?? 20))));
}
