/** bench/http.js's report: the run's facts, then its tables and ratios (or JSON). */
import os from 'node:os';
import process from 'node:process';
import { URL } from 'node:url';
import { CONFIGURATIONS, onTmpfs } from './httpOptions.js';

/** A connection string without its password. */
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** The run's header lines: command, machine, load. */
function formatHeader(report) {
  const { machine: m, options: o } = report;
  return [
    `command:  ${report.command}`,
    `node:     ${m.node}  cpu: ${m.cpu} x ${m.cpuCount}  (${m.platform})`,
    `load:     ${o.connections} connections, ${o.warmupSeconds} s warm-up, ` +
      `${o.durationSeconds} s per target x ${o.rounds} round(s)`,
    `config:   ${CONFIGURATIONS[o.configuration].label}` +
      (o.logLevel === null ? '' : `; logs at ${o.logLevel}`),
    `data:     SQLite in ${o.dataDir}${o.dataOnTmpfs ? ' (tmpfs: an fsync costs nothing)' : ''}` +
      (o.postgres === null ? '' : `; PostgreSQL at ${o.postgres}, a schema of its own`),
  ].join('\n');
}

/** One scenario as a table, then each compared target's ratios to the baseline. */
function formatScenario(scenario, rounds) {
  const unit = scenario.unit;
  const head = [
    'target',
    `${unit}/s`,
    'p50 ms',
    'p99 ms',
    `server µs/${unit.replace(/s$/, '')}`,
    'server CPU',
    'loader CPU',
    'log B/req',
    unit,
  ];
  const cells = (r, name) => [
    name,
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.serverCpuMicrosPerRequest.toFixed(1),
    `${r.serverCpuPercent.toFixed(0)}%`,
    `${r.loaderCpuPercent.toFixed(0)}%`,
    r.logBytesPerRequest === null ? '-' : r.logBytesPerRequest.toFixed(0),
    String(r.requests),
  ];
  const perRound =
    rounds > 1 ? scenario.measured.map((r) => cells(r, `  round ${r.round} ${r.target}`)) : null;
  const summary = scenario.results.map((r) =>
    cells(r, perRound ? `${r.target} (median)` : r.target),
  );
  const rows = [...(perRound ?? []), ...summary];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const rule = line(widths.map((w) => '-'.repeat(w)));
  const bytes = scenario.results
    .map((r) => `${r.target} ${r.bytesPerResponse.toFixed(0)}`)
    .join(', ');
  const ratios = scenario.comparisons.flatMap((c) => {
    const perRoundRatios =
      rounds > 1 ? ` (rounds: ${c.ratioPercent.map((r) => r.toFixed(1)).join(', ')})` : '';
    return [
      `${c.target} / ${c.baseline}: ${c.medianRatioPercent.toFixed(1)}% of ${unit}/s` +
        perRoundRatios,
      `${c.target} / ${c.baseline}: ${c.medianCpuRatioPercent.toFixed(1)}% by server CPU ` +
        `per ${unit.replace(/s$/, '')} (${c.baseline} ÷ ${c.target})`,
    ];
  });
  return [
    `${scenario.endpoint}`,
    '',
    line(head),
    rule,
    ...(perRound ?? []).map(line),
    ...(perRound ? [rule] : []),
    ...summary.map(line),
    '',
    `server µs/${unit.replace(/s$/, '')} = server CPU time (user + system) per response; ` +
      'CPU = share of one core; log B/req = bytes the server logged per response',
    `bytes per response: ${bytes}`,
    '',
    ...ratios,
  ].join('\n');
}

export function formatReport(report) {
  return [
    formatHeader(report),
    ...report.scenarios.map((s) => `\n${formatScenario(s, report.options.rounds)}`),
  ].join('\n');
}

/** The run's report: when, the command, the machine, the options and the scenarios measured. */
export function reportOf({ argv, options, withPostgres, scenarios }) {
  return {
    date: new Date().toISOString(),
    command: `node bench/http.js ${argv.join(' ')}`.trim(),
    machine: machine(),
    options: {
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      rounds: options.rounds,
      configuration: options.configuration,
      compare: options.compare,
      dataDir: options.dataDir,
      dataOnTmpfs: onTmpfs(options.dataDir),
      logLevel: options.logLevel,
      postgres: withPostgres ? redact(options.postgresUrl) : null,
    },
    scenarios,
  };
}
