/**
 * @module activities/config: an application's embedded activity config (docs/activities.md):
 * the URL mappings the proxy host routes by, the supported platforms, the orientation lock states
 * and the age gate. The developer portal reads and changes it with the app owner's session; a
 * config with a root mapping (`/`) is what makes the app an activity (the EMBEDDED flag, and
 * LAUNCH_ACTIVITY among its callback types).
 */
import { ApplicationFlags, isSnowflake } from '@guildhall/protocol';
import { z } from 'zod';
import { ApiError } from '../errors/index.js';
import type { Revocations } from '../events/revocations.js';
import type { Principal } from '../http/authenticator.js';
import type {
  ActivityConfigRecord,
  ActivityUrlMapping,
  ApplicationRecord,
  Repositories,
  Storage,
} from '../storage/index.js';

/** The most URL mappings one application keeps. */
export const MAX_URL_MAPPINGS = 25;
/** The longest prefix and target, in characters. */
const MAX_PREFIX_LENGTH = 100;
const MAX_TARGET_LENGTH = 512;

/** The platforms an activity may support. */
export const ACTIVITY_PLATFORMS = ['web', 'ios', 'android'] as const;

/** Orientation lock states: 1 unlocked, 2 portrait, 3 landscape. */
export const OrientationLockStates = { UNLOCKED: 1, PORTRAIT: 2, LANDSCAPE: 3 } as const;

/** The root mapping's prefix: an app with one is an activity. */
export const ROOT_PREFIX = '/';

/** The prefix the proxy host strips (optional since 2025-07-30): no mapping may claim it. */
const RESERVED_PREFIX = '/.proxy';

/** Path characters a prefix may hold: RFC 3986 unreserved ones and '/'. */
const PREFIX_PATTERN = /^\/[A-Za-z0-9._~\-/]*$/;

/** A host name label, an IPv4 address, or a bracketed IPv6 address; an optional port and path. */
const TARGET_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[A-Za-z0-9._~\-/%]*)?$/;

/** Loopback host names: a target without a scheme reaches them over http (a local dev server). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]'
  );
}

/**
 * The URL a mapping's target names: `http://` or `https://` as written, else https, except a
 * loopback host (localhost, 127.0.0.0/8, [::1]), reached over http. Null for a target that is
 * not one (never for a stored one: `saveConfig` checks them).
 */
export function targetUrl(target: string): URL | null {
  const explicit = /^https?:\/\//i.exec(target);
  const rest = explicit === null ? target : target.slice(explicit[0].length);
  if (rest.length === 0 || !TARGET_PATTERN.test(rest)) return null;
  const hostname = /^(\[[^\]]*\]|[^:/]+)/.exec(rest)?.[1] ?? '';
  const scheme = explicit?.[0].toLowerCase() ?? (isLoopbackHost(hostname) ? 'http://' : 'https://');
  if (!URL.canParse(`${scheme}${rest}`)) return null;
  const url = new URL(`${scheme}${rest}`);
  const port = /:(\d+)(?:\/|$)/.exec(rest.slice(hostname.length))?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  return url;
}

/** A prefix without its trailing slashes ('/' stays '/'): '/api/' and '/api' are one prefix. */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' ? ROOT_PREFIX : trimmed;
}

const Prefix = z
  .string()
  .min(1)
  .max(MAX_PREFIX_LENGTH)
  .regex(PREFIX_PATTERN, "A prefix starts with '/' and holds only letters, digits, '-._~/'.")
  .refine((prefix) => !prefix.includes('//'), 'A prefix has no empty segment.')
  .refine(
    (prefix) => !prefix.split('/').some((segment) => segment === '.' || segment === '..'),
    "A prefix has no '.' or '..' segment.",
  )
  .refine(
    (prefix) =>
      normalisePrefix(prefix) !== RESERVED_PREFIX &&
      !normalisePrefix(prefix).startsWith(`${RESERVED_PREFIX}/`),
    `The ${RESERVED_PREFIX} prefix belongs to the proxy host.`,
  )
  .transform(normalisePrefix);

const Target = z
  .string()
  .min(1)
  .max(MAX_TARGET_LENGTH)
  .refine(
    (target) => targetUrl(target) !== null,
    'A target is host[:port][/path], optionally after http:// or https://.',
  );

const UrlMapping = z.object({ prefix: Prefix, target: Target }).strict();

const OrientationLockState = z.union([
  z.literal(OrientationLockStates.UNLOCKED),
  z.literal(OrientationLockStates.PORTRAIT),
  z.literal(OrientationLockStates.LANDSCAPE),
]);

/** PATCH /applications/{id}/embedded-activity-config: every field optional, the rest kept. */
export const ActivityConfigBody = z
  .object({
    url_mappings: z
      .array(UrlMapping)
      .max(MAX_URL_MAPPINGS)
      .superRefine((mappings, ctx) => {
        const seen = new Set<string>();
        mappings.forEach((mapping, index) => {
          if (seen.has(mapping.prefix)) {
            ctx.addIssue({
              code: 'custom',
              path: [index, 'prefix'],
              message: 'Prefixes must be unique.',
            });
          }
          seen.add(mapping.prefix);
        });
      })
      .optional(),
    supported_platforms: z
      .array(z.enum(ACTIVITY_PLATFORMS))
      .max(ACTIVITY_PLATFORMS.length)
      .refine((list) => new Set(list).size === list.length, 'Platforms must be unique.')
      .optional(),
    default_orientation_lock_state: OrientationLockState.optional(),
    tablet_default_orientation_lock_state: OrientationLockState.optional(),
    requires_age_gate: z.boolean().optional(),
  })
  .strict();
export type ActivityConfigInput = z.infer<typeof ActivityConfigBody>;

export const ActivityConfigParams = z.object({ application_id: z.string() });

/** Whether the mappings make an activity: one of them is the root. */
export function hasRootMapping(mappings: readonly ActivityUrlMapping[] | null): boolean {
  return mappings?.some((mapping) => mapping.prefix === ROOT_PREFIX) ?? false;
}

/** The config of an app that never saved one. */
function defaultConfig(applicationId: string): ActivityConfigRecord {
  return {
    applicationId,
    urlMappings: [],
    supportedPlatforms: ['web'],
    defaultOrientationLockState: OrientationLockStates.UNLOCKED,
    tabletDefaultOrientationLockState: OrientationLockStates.UNLOCKED,
    requiresAgeGate: false,
    updatedAt: 0,
  };
}

/** The config as the routes answer it. */
export function serializeActivityConfig(config: ActivityConfigRecord, activityOrigin: string) {
  return {
    application_id: config.applicationId,
    url_mappings: config.urlMappings.map((m) => ({ prefix: m.prefix, target: m.target })),
    supported_platforms: config.supportedPlatforms,
    default_orientation_lock_state:
      config.defaultOrientationLockState ?? OrientationLockStates.UNLOCKED,
    tablet_default_orientation_lock_state:
      config.tabletDefaultOrientationLockState ?? OrientationLockStates.UNLOCKED,
    requires_age_gate: config.requiresAgeGate,
    activity_origin: activityOrigin,
  };
}

/** Whether the application has an activity to launch (a root mapping). */
export async function hasActivity(repos: Repositories, applicationId: string): Promise<boolean> {
  return hasRootMapping(await repos.activities.urlMappings(applicationId));
}

/** What the config service is built from. */
export interface ActivityConfigDeps {
  storage: Storage;
  clock: { now(): number };
  /** The origin the app's activity is served from (the proxy host). */
  activityOrigin: (applicationId: string) => string;
  /** Tells every node's proxy host that an application's URL mappings changed. */
  revocations: Pick<Revocations, 'revoke'>;
}

/** The developer routes' service: read and change an owned application's activity config. */
export function createActivityConfigService(deps: ActivityConfigDeps) {
  const { storage, clock, revocations } = deps;

  /** The application the caller's session owns; 10002 for any other, as the portal routes do. */
  const owned = async (repos: Repositories, principal: Principal, applicationId: string) => {
    const application = isSnowflake(applicationId)
      ? await repos.applications.findById(applicationId)
      : null;
    if (application?.ownerId !== principal.user.id) throw new ApiError('UNKNOWN_APPLICATION');
    return application;
  };

  const view = (config: ActivityConfigRecord) =>
    serializeActivityConfig(config, deps.activityOrigin(config.applicationId));

  /** Sets or clears EMBEDDED to match the mappings. */
  const syncFlag = async (repos: Repositories, application: ApplicationRecord, root: boolean) => {
    const flags = root
      ? application.flags | ApplicationFlags.EMBEDDED
      : application.flags & ~ApplicationFlags.EMBEDDED;
    if (flags !== application.flags) await repos.applications.update(application.id, { flags });
  };

  return {
    /** GET /applications/{id}/embedded-activity-config. */
    async get(principal: Principal, applicationId: string) {
      const application = await owned(storage, principal, applicationId);
      const config = await storage.activities.findConfig(application.id);
      return view(config ?? defaultConfig(application.id));
    },

    /** PATCH /applications/{id}/embedded-activity-config: the fields given replace the stored. */
    async modify(principal: Principal, applicationId: string, input: ActivityConfigInput) {
      return storage.transaction(async (tx) => {
        const application = await owned(tx, principal, applicationId);
        // The application's row lock: two saves at once apply one after the other.
        await tx.commands.lock(application.id);
        const current =
          (await tx.activities.findConfig(application.id)) ?? defaultConfig(application.id);
        const next: ActivityConfigRecord = {
          applicationId: application.id,
          urlMappings: input.url_mappings ?? current.urlMappings,
          supportedPlatforms: input.supported_platforms ?? current.supportedPlatforms,
          defaultOrientationLockState:
            input.default_orientation_lock_state ?? current.defaultOrientationLockState,
          tabletDefaultOrientationLockState:
            input.tablet_default_orientation_lock_state ??
            current.tabletDefaultOrientationLockState,
          requiresAgeGate: input.requires_age_gate ?? current.requiresAgeGate,
          updatedAt: clock.now(),
        };
        await tx.activities.saveConfig(next);
        await syncFlag(tx, application, hasRootMapping(next.urlMappings));
        // Every node's proxy host reads the mappings again once this commits.
        revocations.revoke(tx, { activityApplicationIds: [application.id] });
        return view(next);
      });
    },
  };
}

export type ActivityConfigService = ReturnType<typeof createActivityConfigService>;
