import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplicationFlags, ChannelTypes, PermissionFlags } from '@guildhall/protocol';
import type { App } from './app.js';
import { loadWorld } from './control/world.js';
import { readWorldFile } from './control/worldFile.js';
import { hashSecret } from './domain/credentials.js';
import { PRIVILEGED_INTENT_FLAGS, type PrivilegedIntentName } from './gateway/privileged.js';

/** What `npm start` prints and writes to demo.json, for people and for scripts. */
export interface DemoInfo {
  api_url: string;
  gateway_url: string;
  application_id: string;
  client_secret: string;
  bot_token: string;
  guild_id: string;
  channel_id: string;
  user_id: string;
  user_token: string;
}

export const DEMO_USERNAME = 'demo';
const DEMO_FILE = 'demo.json';

/**
 * The demo application starts as a developer sandbox does: with the self-serve ("limited")
 * privileged intent flags on, so GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT work at once.
 * PATCH /applications/@me `{"flags": 0}` turns them off (the banner shows how).
 */
export const DEMO_APPLICATION_FLAGS =
  ApplicationFlags.GATEWAY_PRESENCE_LIMITED |
  ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED |
  ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED;

export async function readDemoFile(path: string): Promise<DemoInfo | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as DemoInfo;
  } catch {
    return null;
  }
}

/** Whether every credential in the file still works against this database. */
async function stillValid(app: App, demo: DemoInfo): Promise<boolean> {
  const [bot, user, guild, channel] = await Promise.all([
    app.storage.tokens.findByHash(hashSecret(demo.bot_token)),
    app.storage.tokens.findByHash(hashSecret(demo.user_token)),
    app.storage.guilds.findById(demo.guild_id),
    app.storage.channels.findById(demo.channel_id),
  ]);
  const secretOk =
    (await app.storage.applications.findById(demo.application_id))?.clientSecretHash ===
    hashSecret(demo.client_secret);
  return bot !== null && user !== null && guild !== null && channel !== null && secretOk;
}

/** The demo world (worlds/demo.json): the demo developer, Demo Bot and Demo Guild. */
export const DEMO_WORLD_FILE = fileURLToPath(new URL('../worlds/demo.json', import.meta.url));

/**
 * Makes the demo by loading the demo world, with a seed of its own for this data folder: the
 * demo's tokens are secrets, not the same on every machine.
 */
async function loadDemoWorld(app: App): Promise<Omit<DemoInfo, 'api_url' | 'gateway_url'>> {
  const world = await readWorldFile(DEMO_WORLD_FILE);
  const loaded = await loadWorld(app, world, { seed: randomBytes(32).toString('base64url') });
  const developer = loaded.people['demo'];
  const bot = loaded.applications['demo-bot'];
  const guild = loaded.guilds['demo'];
  const channelId = guild?.channels['general'];
  if (
    developer === undefined ||
    bot === undefined ||
    guild === undefined ||
    channelId === undefined
  ) {
    throw new Error(`${DEMO_WORLD_FILE} has no person demo, application demo-bot or guild demo`);
  }
  return {
    application_id: bot.id,
    client_secret: bot.clientSecret,
    bot_token: bot.botToken,
    guild_id: guild.id,
    channel_id: channelId,
    user_id: developer.id,
    user_token: developer.token,
  };
}

/**
 * Makes the demo (the demo world) on a database without it, or re-issues the secrets of the
 * one there (demo.json lost): a new session, bot token and client secret, the bot back in the
 * guild.
 */
async function createDemo(app: App): Promise<Omit<DemoInfo, 'api_url' | 'gateway_url'>> {
  const { services, storage } = app;
  const developer = await storage.users.findByUsername(DEMO_USERNAME);
  if (developer === null) return loadDemoWorld(app);
  const session = await services.auth.issueSession(developer);
  const principal = {
    kind: 'session' as const,
    user: developer,
    applicationId: null,
    scopes: [],
    tokenHash: hashSecret(session.token),
  };
  const [ownedApp] = await storage.applications.listByOwner(developer.id);
  const [ownedGuild] = await storage.guilds.listForUser(developer.id);
  if (ownedApp === undefined || ownedGuild === undefined) {
    throw new Error(
      'this database has a demo person without its application or guild: start with an empty --data-dir, or --no-demo',
    );
  }
  const botToken = (await services.applications.resetBotToken(principal, ownedApp.id)).token;
  const clientSecret = (await services.applications.resetSecret(principal, ownedApp.id)).secret;
  await services.guilds.addBot({
    guildId: ownedGuild.id,
    applicationId: ownedApp.id,
    permissions: PermissionFlags.ADMINISTRATOR,
  });
  const channel = (await storage.channels.listByGuild(ownedGuild.id)).find(
    (c) => c.type === ChannelTypes.GUILD_TEXT,
  );
  if (channel === undefined) throw new Error('the demo guild has no text channel');
  return {
    application_id: ownedApp.id,
    client_secret: clientSecret,
    bot_token: botToken,
    guild_id: ownedGuild.id,
    channel_id: channel.id,
    user_id: developer.id,
    user_token: session.token,
  };
}

/**
 * Reuses the demo recorded in `<dataDir>/demo.json` while its credentials work; otherwise makes
 * (or repairs) it and writes the file with mode 0600.
 */
export async function ensureDemo(
  app: App,
): Promise<{ demo: DemoInfo; created: boolean; privilegedIntents: PrivilegedIntentName[] }> {
  const path = join(app.config.dataDir, DEMO_FILE);
  const urls = { api_url: app.apiUrl(), gateway_url: app.gatewayUrl() };
  const recorded = await readDemoFile(path);
  if (recorded !== null && (await stillValid(app, recorded))) {
    const demo = { ...recorded, ...urls };
    if (demo.api_url !== recorded.api_url || demo.gateway_url !== recorded.gateway_url) {
      await writeDemoFile(path, demo);
    }
    return { demo, created: false, privilegedIntents: await privilegedIntentsOn(app, demo) };
  }
  const demo = { ...urls, ...(await createDemo(app)) };
  await writeDemoFile(path, demo);
  return { demo, created: true, privilegedIntents: await privilegedIntentsOn(app, demo) };
}

/** The privileged intents the demo application's flags enable now. */
async function privilegedIntentsOn(app: App, demo: DemoInfo): Promise<PrivilegedIntentName[]> {
  const flags = (await app.storage.applications.findById(demo.application_id))?.flags ?? 0n;
  return PRIVILEGED_INTENT_FLAGS.filter((p) => (flags & p.flags) !== 0n).map((p) => p.name);
}

async function writeDemoFile(path: string, demo: DemoInfo): Promise<void> {
  const temp = `${path}.tmp`;
  await writeFile(temp, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
}

/**
 * What the banner's and `guildhall status`'s sign-in link does: one sign-in for every page
 * (docs/web.md#one-sign-in).
 */
export const SIGN_IN_NOTE =
  '(the web client, the developer portal and consent pages, as the demo developer; one use, within an hour)';

/**
 * Where a login link's code logs in: the client's and the portal's login pages, with the code in
 * the fragment (#), which browsers never send to a server nor put in a Referer.
 */
export function loginLinkUrls(baseUrl: string, code: string) {
  const fragment = `#code=${encodeURIComponent(code)}`;
  return {
    client_url: `${baseUrl}/login${fragment}`,
    portal_url: `${baseUrl}/developers/login${fragment}`,
  };
}

/**
 * The banner `npm start` prints: where the API is, the token, a discord.js snippet, and which
 * privileged intents are on with the command that toggles them.
 */
/** What the start banner says of the voice node. */
export interface VoiceBannerInfo {
  endpoint: string;
  /** The development certificate's file; null: the operator's certificate. */
  developmentCertificate: string | null;
}

/** The banner's voice lines: the endpoint, and how Node clients trust a development certificate. */
export function voiceLines(voice: VoiceBannerInfo | null): string[] {
  if (voice === null) return [];
  return [
    `  Voice:      ${voice.endpoint} (wss and ws; end-to-end encrypted calls, docs/voice.md)`,
    ...(voice.developmentCertificate === null
      ? []
      : [`              Node clients: NODE_EXTRA_CA_CERTS=${voice.developmentCertificate}`]),
  ];
}

/** The banner's line for a development certificate on the API and gateway (`--tls dev`). */
export function tlsLines(developmentCertificate: string | null): string[] {
  return developmentCertificate === null
    ? []
    : [
        `  TLS:        development certificate; Node clients: NODE_EXTRA_CA_CERTS=${developmentCertificate}`,
      ];
}

export function demoBanner(
  demo: DemoInfo,
  demoFile: string,
  options: {
    privilegedIntents?: readonly PrivilegedIntentName[];
    /** Where the pages are, and a one-time login link's code for the demo developer. */
    web?: { baseUrl: string; loginCode: string } | null;
    /** The voice node's endpoint, and its development certificate when it has one. */
    voice?: VoiceBannerInfo | null;
    /** The API's development certificate (`--tls dev`), when it serves one. */
    tlsCertificate?: string | null;
  } = {},
): string {
  const { privilegedIntents = [], web = null, voice = null, tlsCertificate = null } = options;
  const api = demo.api_url.replace(/\/v\d+$/, '');
  // Images (avatars, icons...) are at the root, as on the platform's CDN host.
  const cdn = api.replace(/\/api$/, '');
  const pages =
    web === null
      ? []
      : [
          `  Sign in:    ${loginLinkUrls(web.baseUrl, web.loginCode).client_url}`,
          `              ${SIGN_IN_NOTE}`,
          `  Portal:     ${web.baseUrl}/developers/applications`,
        ];
  return [
    '',
    `Guildhall is running.`,
    ...pages,
    `  API:        ${demo.api_url}`,
    `  Gateway:    ${demo.gateway_url}`,
    ...tlsLines(tlsCertificate),
    ...voiceLines(voice),
    `  Bot token:  ${demo.bot_token}`,
    `  Guild:      ${demo.guild_id} (channel ${demo.channel_id})`,
    `  Everything above, for scripts: ${demoFile}`,
    '',
    'Connect with discord.js (REST, the gateway and image URLs; only the API and CDN URLs change):',
    "  import { Client, Events, GatewayIntentBits } from 'discord.js';",
    '  const client = new Client({',
    '    intents: [GatewayIntentBits.Guilds],',
    `    rest: { api: '${api}', cdn: '${cdn}' },`,
    '  });',
    '  client.once(Events.ClientReady, (c) => console.log(`Logged in as ${c.user.tag}`));',
    '  client.on(Events.GuildCreate, (guild) => console.log(`In guild ${guild.name}`));',
    `  client.login('${demo.bot_token}');`,
    '',
    ...intentsLines(demo, privilegedIntents),
    '',
  ].join('\n');
}

function intentsLines(demo: DemoInfo, on: readonly PrivilegedIntentName[]): string[] {
  const patch = (flags: bigint) =>
    `  curl -X PATCH ${demo.api_url}/applications/@me -H 'Authorization: Bot ${demo.bot_token}' -H 'Content-Type: application/json' -d '{"flags":${flags}}'`;
  if (on.length === 0) {
    return [
      'Privileged intents: off. Turn on GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT with:',
      patch(DEMO_APPLICATION_FLAGS),
    ];
  }
  return [
    `Privileged intents on, as in a developer sandbox: ${on.join(', ')} (the self-serve flags).`,
    'Turn them off with:',
    patch(0n),
  ];
}
