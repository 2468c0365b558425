/**
 * bench/http.js's comparison runs: a probe before the load, each target measured under autocannon
 * in turn per round, the medians and each target's ratios to its baselines.
 */
import console from 'node:console';
import { request as httpRequest } from 'node:http';
import process from 'node:process';
import { checkResponses, load } from './autocannon.js';
import { median } from './stats.js';

async function measure(target, options, running) {
  const { warmupSeconds, round } = options;
  const run = async (label, durationSeconds) => {
    const job = load(target.request, { ...options, durationSeconds });
    running.add(job.instance);
    try {
      const measured = await job.done;
      checkResponses(label, measured.result);
      return measured;
    } finally {
      running.delete(job.instance);
    }
  };
  if (round === 1 && warmupSeconds > 0) await run(`${target.name} warm-up`, warmupSeconds);
  const logBefore = target.server.logBytes();
  const cpuBefore = await target.server.cpuMicros();
  const loaderBefore = process.cpuUsage();
  const { result, latencyUs } = await run(target.name, options.durationSeconds);
  const loader = process.cpuUsage(loaderBefore);
  const cpuMicros = (await target.server.cpuMicros()) - cpuBefore;
  const elapsedMicros = result.duration * 1e6;
  // Requests autocannon gave up on at the end may still be running: let them finish (and their
  // log lines reach the file) before the next target.
  await target.server.settle();
  const logAfter = target.server.logBytes();
  return {
    target: target.name,
    round,
    requestsPerSecond: result.requests.average,
    p50Ms: latencyUs.percentile(50) / 1000,
    p99Ms: latencyUs.percentile(99) / 1000,
    serverCpuMicrosPerRequest: cpuMicros / result['2xx'],
    // Shares of one core: a side near 100% is the bottleneck.
    serverCpuPercent: (100 * cpuMicros) / elapsedMicros,
    loaderCpuPercent: (100 * (loader.user + loader.system)) / elapsedMicros,
    requests: result['2xx'],
    bytesPerResponse: result.throughput.total / result['2xx'],
    logBytesPerRequest: logBefore === null ? null : (logAfter - logBefore) / result['2xx'],
  };
}

/** One target's rounds: the median of each figure (the figures of the one round when rounds=1). */
function summarize(runs) {
  const pick = (key) => median(runs.map((r) => r[key]));
  return {
    target: runs[0].target,
    requestsPerSecond: pick('requestsPerSecond'),
    p50Ms: pick('p50Ms'),
    p99Ms: pick('p99Ms'),
    serverCpuMicrosPerRequest: pick('serverCpuMicrosPerRequest'),
    serverCpuPercent: pick('serverCpuPercent'),
    loaderCpuPercent: pick('loaderCpuPercent'),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    bytesPerResponse: pick('bytesPerResponse'),
    logBytesPerRequest: runs[0].logBytesPerRequest === null ? null : pick('logBytesPerRequest'),
  };
}

/**
 * One request before the load ({url, method, headers, body}): checks that it succeeds and
 * returns the body.
 */
export function probe({ url, method = 'GET', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method, headers, agent: false, timeout: 5000 },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (response.statusCode === 200) resolve(text);
          else
            reject(
              new Error(`${method} ${url} answered ${response.statusCode}: ${text.slice(0, 300)}`),
            );
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${url} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}
/**
 * Measures each target in turn per round, then the medians and each target's ratios to its
 * baselines: the names in its `baselines`, else the first target.
 */
export async function runScenario(scenario, options, running) {
  const { targets } = scenario;
  const measured = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    // One target at a time: each has the machine to itself while it is measured.
    for (const target of targets) {
      if (!options.json) {
        console.error(`${scenario.name}, round ${round}/${options.rounds}: ${target.name}...`);
      }
      measured.push(await measure(target, { ...options, round }, running));
    }
  }
  const results = targets.map((t) => summarize(measured.filter((m) => m.target === t.name)));
  const [first, ...rest] = targets;
  const pairs = rest.flatMap((target) =>
    (target.baselines ?? [first.name]).map((name) => {
      const baseline = targets.find((t) => t.name === name);
      if (baseline === undefined) throw new Error(`no target named ${name}`);
      return { target, baseline };
    }),
  );
  const comparisons = pairs.map(({ target, baseline }) => {
    const ratioPercent = [];
    const cpuRatioPercent = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const [b, g] = [baseline, target].map((t) =>
        measured.find((m) => m.target === t.name && m.round === round),
      );
      ratioPercent.push((100 * g.requestsPerSecond) / b.requestsPerSecond);
      cpuRatioPercent.push((100 * b.serverCpuMicrosPerRequest) / g.serverCpuMicrosPerRequest);
    }
    return {
      target: target.name,
      baseline: baseline.name,
      medianRatioPercent: median(ratioPercent),
      medianCpuRatioPercent: median(cpuRatioPercent),
      ratioPercent,
      cpuRatioPercent,
    };
  });
  return {
    name: scenario.name,
    endpoint: scenario.endpoint,
    unit: scenario.unit,
    results,
    comparisons,
    measured,
  };
}
