/**
 * Linked roles (docs/applications.md#role-connections): an application describes the metadata
 * a guild may require of its users (up to 5 records), and each user's connection carries
 * values for those keys, written with an OAuth2 token holding `role_connections.write`.
 */
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  RoleConnectionMetadataRecord,
  UserRoleConnectionRecord,
} from '../../storage/index.js';
import { requireScope } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { ownApplication } from './access.js';
import { MetadataTypes, type UserRoleConnectionInput } from './schemas.js';

const SCOPE = 'role_connections.write';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether `value` is a valid value for a record of `type`. */
function validValue(type: number, value: string): boolean {
  if (type <= MetadataTypes.INTEGER_NOT_EQUAL) return /^-?\d{1,19}$/.test(value);
  if (type <= MetadataTypes.DATETIME_GREATER_THAN_OR_EQUAL) {
    return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
  }
  return value === '0' || value === '1' || value === 'true' || value === 'false';
}

/** The connection on the wire: no platform_name when none is set (the document's shape). */
function connectionWire(
  found: Pick<UserRoleConnectionRecord, 'platformName' | 'platformUsername' | 'metadata'> | null,
) {
  return {
    ...(found?.platformName == null ? {} : { platform_name: found.platformName }),
    platform_username: found?.platformUsername ?? null,
    metadata: found?.metadata ?? {},
  };
}

export function createRoleConnectionService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  /** The Bearer caller's own application: the route's id must be its token's. */
  const bearerApp = async (principal: Principal, applicationId: string) => {
    if (principal.kind !== 'bearer') throw new ApiError('UNAUTHORIZED');
    requireScope(principal, SCOPE);
    if (principal.applicationId !== applicationId) throw new ApiError('UNKNOWN_APPLICATION');
    const app = await storage.applications.findById(applicationId);
    if (app === null) throw new ApiError('UNKNOWN_APPLICATION');
    return app;
  };

  return {
    async metadata(principal: Principal, applicationId: string) {
      const app = await ownApplication(storage, principal, applicationId);
      return storage.roleConnections.listMetadata(app.id);
    },

    async putMetadata(
      principal: Principal,
      applicationId: string,
      records: readonly RoleConnectionMetadataRecord[],
    ) {
      const app = await ownApplication(storage, principal, applicationId);
      const seen = new Set<string>();
      records.forEach((record, index) => {
        if (seen.has(record.key)) {
          throw invalidField([index, 'key'], 'BASE_TYPE_INVALID', 'Keys must be unique.');
        }
        seen.add(record.key);
      });
      const stored = records.map((r) => ({
        type: r.type,
        key: r.key,
        name: r.name,
        description: r.description,
        ...(r.name_localizations == null ? {} : { name_localizations: r.name_localizations }),
        ...(r.description_localizations == null
          ? {}
          : { description_localizations: r.description_localizations }),
      }));
      await storage.roleConnections.putMetadata(app.id, stored, clock.now());
      return stored;
    },

    async get(principal: Principal, applicationId: string) {
      await bearerApp(principal, applicationId);
      const found = await storage.roleConnections.findConnection(principal.user.id, applicationId);
      return connectionWire(found);
    },

    async put(principal: Principal, applicationId: string, input: UserRoleConnectionInput) {
      await bearerApp(principal, applicationId);
      const records = await storage.roleConnections.listMetadata(applicationId);
      const types = new Map(records.map((r) => [r.key, r.type]));
      const previous = await storage.roleConnections.findConnection(
        principal.user.id,
        applicationId,
      );
      const metadata =
        input.metadata === undefined ? (previous?.metadata ?? {}) : (input.metadata ?? {});
      for (const [key, value] of Object.entries(metadata)) {
        const type = types.get(key);
        if (type === undefined) {
          throw invalidField(['metadata', key], 'BASE_TYPE_INVALID', 'Unknown metadata key.');
        }
        if (!validValue(type, value)) {
          throw invalidField(['metadata', key], 'BASE_TYPE_INVALID', 'Invalid value for this key.');
        }
      }
      const next = {
        userId: principal.user.id,
        applicationId,
        platformName:
          input.platform_name === undefined
            ? (previous?.platformName ?? null)
            : input.platform_name,
        platformUsername:
          input.platform_username === undefined
            ? (previous?.platformUsername ?? null)
            : input.platform_username,
        metadata,
        updatedAt: clock.now(),
      };
      await storage.roleConnections.putConnection(next);
      return connectionWire(next);
    },

    async delete(principal: Principal, applicationId: string) {
      await bearerApp(principal, applicationId);
      await storage.roleConnections.deleteConnection(principal.user.id, applicationId);
    },
  };
}

export type RoleConnectionService = ReturnType<typeof createRoleConnectionService>;
