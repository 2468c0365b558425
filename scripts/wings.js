// Refuses an import between the resources of packages/server/src/resources that points up the
// wings (docs/architecture.md#resources-in-wings), and a resource folder that has no wing.
//
// The resources are grouped in wings by what they serve, from the bottom up (WINGS below). A
// resource imports the resources of its own wing and of the wings below it, never above: what two
// wings both need lives in the lower one, or is handed in as a dependency by the composition
// root. The shared files directly in `resources/` (deps.ts, dispatches.ts, wireShape.ts, the image
// helpers) are the floor under every wing and import no resource. Tests are left out.
//
// A resource lives in `resources/<wing>/<name>/`; the check also reads the older flat layout
// (`resources/<name>/`) as long as no wing folder exists, so it holds before and after the move.
// Usage: `node scripts/wings.js [root]`; exits 1 and prints each refusal.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { sourceFiles, specifiers } from './cycles.js';

/**
 * The wings, from the bottom up, each with the resources it holds and what it serves.
 * @type {readonly { wing: string, serves: string, resources: readonly string[] }[]}
 */
export const WINGS = [
  {
    wing: 'kernel',
    serves:
      "who calls and what they may do: users, a caller's guild access, the audit log, shared edit rights, the platform's own endpoints",
    resources: ['access', 'auditLog', 'users', 'expressions', 'gatewayInfo', 'system'],
  },
  {
    wing: 'identity',
    serves: 'accounts: registration, login and sessions, linked accounts',
    resources: ['auth', 'connections'],
  },
  {
    wing: 'guild',
    serves:
      'a guild and what it is made of: channels, roles, members, bans, expressions, invites, settings, events, voice',
    resources: [
      'guilds',
      'channels',
      'roles',
      'members',
      'emojis',
      'stickers',
      'soundboard',
      'invites',
      'integrations',
      'guildSettings',
      'guildTemplates',
      'guildTags',
      'scheduledEvents',
      'voice',
    ],
  },
  {
    wing: 'messaging',
    serves:
      'messages and what carries them: threads, polls, search, webhooks, announcements, components',
    resources: [
      'messages',
      'threads',
      'polls',
      'search',
      'webhooks',
      'announcements',
      'components',
    ],
  },
  {
    wing: 'moderation',
    serves:
      "keeping a guild safe: bans (a banned member's recent messages deleted) and auto-moderation",
    resources: ['bans', 'autoModeration'],
  },
  {
    wing: 'social',
    serves:
      "the Social SDK's people: relationships, DMs and their calls, lobbies, limits, activity invites, game stats",
    resources: [
      'relationships',
      'dms',
      'calls',
      'lobbies',
      'socialLimits',
      'activityInvites',
      'gameStats',
    ],
  },
  {
    wing: 'apps',
    serves: 'applications and what they run: commands, interactions, their data, monetization',
    resources: ['applications', 'commands', 'interactions', 'appData', 'monetization'],
  },
];

/** resource name → its wing's index in WINGS. */
const RANK = new Map(WINGS.flatMap(({ resources }, i) => resources.map((name) => [name, i])));
/** resource name → its wing. */
export const WING_OF = new Map(
  WINGS.flatMap(({ wing, resources }) => resources.map((name) => [name, wing])),
);
const WING_NAMES = new Set(WINGS.map(({ wing }) => wing));

/** `resources/` of the server under `root`. */
export const resourcesDir = (root) => join(root, 'packages', 'server', 'src', 'resources');

/**
 * The resource folders under `dir`: name → folder, in their wing or (the flat layout) directly in
 * `resources/`; and whether any wing folder exists.
 * @param {string} dir
 */
export function resourceFolders(dir) {
  /** @type {Map<string, string>} */
  const folders = new Map();
  let winged = false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (WING_NAMES.has(entry.name)) {
      winged = true;
      for (const inner of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
        if (inner.isDirectory()) folders.set(inner.name, join(dir, entry.name, inner.name));
      }
    } else {
      folders.set(entry.name, join(dir, entry.name));
    }
  }
  return { folders, winged };
}

/**
 * Every refusal for the server under `root`, one line each.
 * @param {string} root
 * @returns {string[]}
 */
export function refusals(root) {
  const dir = resourcesDir(root);
  if (!existsSync(dir)) return [];
  const { folders, winged } = resourceFolders(dir);
  /** @type {string[]} */
  const found = [];
  const rel = (/** @type {string} */ path) => relative(root, path).split(sep).join('/');
  for (const [name, folder] of folders) {
    const wing = WING_OF.get(name);
    if (wing === undefined) {
      found.push(
        `${rel(folder)}: a resource without a wing: add it to WINGS in scripts/wings.js (and the table in docs/architecture.md)`,
      );
    } else if (winged && dirname(folder) !== join(dir, wing)) {
      found.push(
        `${rel(folder)}: belongs in the ${wing} wing: move it to resources/${wing}/${name}/`,
      );
    }
  }
  /** The resource a path lies in, or null for the floor (files directly in resources/). */
  const owner = (/** @type {string} */ path) => {
    for (const [name, folder] of folders) {
      if (path === folder || path.startsWith(folder + sep)) return name;
    }
    return null;
  };
  for (const file of sourceFiles(dir)) {
    const from = owner(file);
    const fromRank = from === null ? -1 : RANK.get(from);
    if (fromRank === undefined) continue;
    for (const specifier of specifiers(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(dir + sep)) continue;
      const to = owner(target);
      if (to === null || to === from) continue;
      const toRank = RANK.get(to);
      if (toRank === undefined || toRank <= fromRank) continue;
      const where =
        from === null ? 'the floor of resources/' : `${from} (${WINGS[fromRank]?.wing})`;
      found.push(
        `${rel(file)}: ${where} imports ${to} (${WINGS[toRank]?.wing}): a wing imports only itself and the wings below (${WINGS.map((w) => w.wing).join(' < ')}); move what both need down, or pass it in as a dependency`,
      );
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
      `${found.length} refused by the wings of resources/ (scripts/wings.js).\n`,
    );
    process.exitCode = 1;
  }
}
