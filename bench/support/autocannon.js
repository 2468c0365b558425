/** autocannon runs as the HTTP benchmarks make them (bench/http.js, bench/activityProxy.js). */
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';

/**
 * One autocannon run of `request` ({url, method, headers, body}); latencies are kept in
 * microseconds (autocannon's own are whole ms).
 */
export function load(request, { connections, durationSeconds }) {
  const latencyUs = createHistogram();
  let instance;
  const done = new Promise((resolve, reject) => {
    instance = autocannon({ ...request, connections, duration: durationSeconds }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
  // The event's arguments: client, status code, response bytes, response time in ms.
  instance.on('response', (...event) => {
    latencyUs.record(Math.max(1, Math.round(event[3] * 1000)));
  });
  return { instance, done: done.then((result) => ({ result, latencyUs })) };
}

/** Fails loudly on anything but 2xx answers, connection errors included. */
export function checkResponses(label, result) {
  const problems = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result['2xx'] === 0) problems.push('no 2xx responses');
  if (problems.length > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${label}: ${problems.join(', ')} (status codes ${codes})`);
  }
}
