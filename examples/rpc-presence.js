#!/usr/bin/env node
// A native game's rich presence over RPC (docs/rpc.md), with the unchanged @xhayper/discord-rpc
// library: it finds the local client's socket (`guildhall rpc`, or `npm start -- --rpc`), asks
// the person to authorize the game (AUTHORIZE), lets the game's backend exchange the code for a
// token, AUTHENTICATEs with it, and sets an activity the person's friends see. Run it against a
// platform started with `npm start -- --rpc` (it reads data/demo.json), or set the variables.
import console from 'node:console';
import process from 'node:process';
import { Client } from '@xhayper/discord-rpc';
import { platformSettings } from './platform.js';

const HELP = `Usage: node examples/rpc-presence.js [--once] [--help]

  --once   clear the activity and leave after setting it (default: keep it until Ctrl-C)

Environment:
  API_URL        the API base, e.g. http://127.0.0.1:8080/api/v10 (default: data/demo.json's)
  CLIENT_ID      the game's application id (default: data/demo.json's)
  CLIENT_SECRET  its client secret, which only the game's backend holds (default: demo.json's)
  DEMO_JSON      where npm start wrote the demo credentials (default: data/demo.json)
  XDG_RUNTIME_DIR (or TMPDIR…)  where the daemon's discord-ipc-N socket is`;

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}

async function settings() {
  const found = await platformSettings(
    { API_URL: 'api_url', CLIENT_ID: 'application_id', CLIENT_SECRET: 'client_secret' },
    { help: HELP, missing: 'No application: run `npm start -- --rpc`, or set the variables.' },
  );
  return { api: found.API_URL, clientId: found.CLIENT_ID, clientSecret: found.CLIENT_SECRET };
}

/** The game's backend: it holds the client secret and exchanges the code (no redirect_uri). */
async function exchangeCode({ api, clientId, clientSecret }, code) {
  const response = await globalThis.fetch(`${api}/oauth2/token`, {
    method: 'POST',
    body: new globalThis.URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`token exchange: ${body.error}: ${body.error_description}`);
  return body.access_token;
}

async function main() {
  const app = await settings();
  const client = new Client({ clientId: app.clientId });
  await client.connect();
  console.log(`• connected to the local client of ${client.user.username} (${client.user.id})`);

  // AUTHORIZE: the local client asks the person (or skips asking if they already agreed).
  const { data } = await client.request('AUTHORIZE', {
    client_id: app.clientId,
    scopes: ['identify', 'rpc'],
  });
  const accessToken = await exchangeCode(app, data.code);
  // AUTHENTICATE: from now on the commands that need it (GET_GUILDS…) work.
  await client.login({ scopes: ['identify', 'rpc'], accessToken });
  console.log(`• authenticated as ${client.user.username} for ${client.application.name}`);

  await client.user.setActivity({
    details: 'Ranked match',
    state: 'Round 3 of 5',
    startTimestamp: new Date(),
    partyId: 'party-1',
    partySize: 2,
    partyMax: 4,
  });
  console.log('• activity set: friends see "Ranked match, Round 3 of 5"');

  if (!process.argv.includes('--once')) {
    // Listening before saying so: a Ctrl-C that follows the line at once must find the handler.
    const interrupted = new Promise((resolve) => process.once('SIGINT', resolve));
    console.log('• press Ctrl-C to clear it and leave');
    await interrupted;
  }
  await client.user.clearActivity();
  await client.destroy();
  console.log('• done');
}

main().catch((err) => {
  const hint = /find any Discord client|Could not connect/i.test(err?.message ?? '')
    ? ' (is `guildhall rpc` running, with the same XDG_RUNTIME_DIR/TMPDIR?)'
    : '';
  console.error(`rpc-presence: ${err?.message ?? err}${hint}`);
  process.exit(1);
});
