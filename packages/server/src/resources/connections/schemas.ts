import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { KIND_A_TYPES } from './rules.js';

/** ConnectedAccountProviders (openapi.json): the services a connection may be of. */
export const CONNECTION_TYPES = [
  'battlenet',
  'bluesky',
  'bungie',
  'ebay',
  'epicgames',
  'facebook',
  'github',
  'instagram',
  'mastodon',
  'leagueoflegends',
  'paypal',
  'playstation',
  'reddit',
  'riotgames',
  'roblox',
  'skype',
  'spotify',
  'steam',
  'tiktok',
  'twitch',
  'twitter',
  'xbox',
  'youtube',
  'domain',
] as const;

const Switch = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');

/** The flags of `guildhall user connection add`, as strings from the command line. */
export const AddConnectionFlags = z
  .object({
    user: Snowflake,
    type: z.enum(CONNECTION_TYPES),
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(200).optional(),
    verified: Switch,
    'friend-sync': Switch,
    'show-activity': z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => value !== 'false'),
    'two-way-link': Switch,
    revoked: Switch,
    visibility: z.enum(['0', '1']).default('0').transform(Number),
    'publisher-kind': z.enum(['A', 'B', 'none']).optional(),
    'application-identity': Switch,
  })
  .transform((flags) => ({
    userId: flags.user,
    type: flags.type,
    id: flags.id,
    name: flags.name ?? null,
    verified: flags.verified,
    friendSync: flags['friend-sync'],
    showActivity: flags['show-activity'],
    twoWayLink: flags['two-way-link'],
    revoked: flags.revoked,
    visibility: flags.visibility,
    // Riot Games and League of Legends are kind A unless told otherwise (rules.ts).
    publisherKind:
      flags['publisher-kind'] === undefined
        ? KIND_A_TYPES.includes(flags.type)
          ? ('A' as const)
          : null
        : flags['publisher-kind'] === 'none'
          ? null
          : flags['publisher-kind'],
    applicationIdentity: flags['application-identity'],
  }));
