// Where the examples find the platform: data/demo.json, written by `npm start`, or the environment
// (each variable wins over its demo.json field). Before an example does anything it checks that a
// platform answers there, and if none does it says so in one line instead of a stack trace.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

/**
 * The settings an example needs, each from its environment variable or else from demo.json:
 * `fields` maps a variable (`API_URL`) to its demo.json field (`api_url`); `API_URL` must be one.
 * Exits with code 2 and `help` when one is missing, with code 1 when nothing answers at API_URL.
 */
export async function platformSettings(fields, { help, missing }) {
  const demoPath = process.env.DEMO_JSON ?? 'data/demo.json';
  let demo = null;
  try {
    demo = JSON.parse(readFileSync(demoPath, 'utf8'));
  } catch {
    // No demo file: the environment must say it all.
  }
  const values = {};
  for (const [variable, field] of Object.entries(fields)) {
    values[variable] = process.env[variable] ?? demo?.[field];
  }
  if (Object.values(values).some((value) => value === undefined)) {
    console.error(`${missing}\n\n${help}`);
    process.exit(2);
  }
  values.API_URL = values.API_URL.replace(/\/$/, '');
  const from = process.env.API_URL === undefined ? demoPath : 'API_URL';
  await requirePlatform(values.API_URL, from);
  return values;
}

/** Exits with one line when no platform answers at `api` (`from` says where the URL came from). */
export async function requirePlatform(api, from) {
  const origin = new URL(api).origin;
  try {
    const res = await globalThis.fetch(`${origin}/livez`, {
      signal: globalThis.AbortSignal.timeout(5000),
    });
    if (res.ok) return;
    console.error(
      `The server at ${origin} (from ${from}) answers /livez with ${res.status}: is it Guildhall?`,
    );
  } catch (err) {
    const reason = err?.cause?.code ?? err?.name ?? 'no answer';
    console.error(
      `No platform answers at ${origin} (the API URL from ${from}; ${reason}): is \`npm start\` running?`,
    );
  }
  process.exit(1);
}
