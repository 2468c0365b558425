/** @module storage/sql: the repositories both drivers share, written once over Kysely. */
import type { Kysely } from 'kysely';
import type { Repositories } from '../types.js';
import { createApplicationRepository } from './applications.js';
import {
  createChannelRepository,
  createGuildRepository,
  createMemberRepository,
  createRoleRepository,
} from './guilds.js';
import type { Database } from './schema.js';
import { createTokenRepository } from './tokens.js';
import { createUserRepository } from './users.js';

export type { Database } from './schema.js';

/** Builds every repository over one Kysely handle: the pool, or a transaction. */
export function createRepositories(db: Kysely<Database>): Repositories {
  return {
    users: createUserRepository(db),
    applications: createApplicationRepository(db),
    tokens: createTokenRepository(db),
    guilds: createGuildRepository(db),
    roles: createRoleRepository(db),
    channels: createChannelRepository(db),
    members: createMemberRepository(db),
  };
}
