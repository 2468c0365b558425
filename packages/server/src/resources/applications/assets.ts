/**
 * @module Rich presence assets (docs/applications.md#rich-presence-assets): the images an app's
 * activities name in `assets.large_image` / `small_image`, uploaded by its owner, listed publicly
 * as the platform does, served at `/app-assets/{application_id}/{asset_id}.{ext}`.
 */
import type { FastifyInstance } from 'fastify';
import { isSnowflake } from '@guildhall/protocol';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import type { Principal } from '../../http/authenticator.js';
import {
  StorageConflictError,
  type ApplicationAssetRecord,
  type ApplicationRecord,
  type Storage,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { decodeImage, putImage } from '../imageUploads.js';
import { IMAGE_EXTENSION, type CdnImages } from '../imageVariants.js';
import type { CreateAssetInput } from './schemas.js';

/** The most assets an application holds (the platform's portal limit). */
export const MAX_APPLICATION_ASSETS = 300;

const ASSET_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Where an asset's image is kept (and what blobRefs reads back). */
const assetKey = (asset: Pick<ApplicationAssetRecord, 'applicationId' | 'id'>) =>
  `app-assets/${asset.applicationId}/${asset.id}`;

/** An asset as the platform lists it: `{id, type, name}`. */
export function serializeAsset(asset: ApplicationAssetRecord) {
  return { id: asset.id, type: asset.type, name: asset.name };
}

const nameTaken = () =>
  invalidField(['name'], 'APPLICATION_ASSET_NAME_TAKEN', 'An asset with this name already exists.');

export function createApplicationAssets(
  deps: Pick<ServiceDeps, 'storage' | 'clock' | 'ids' | 'blobs'> & {
    /** The application the caller owns (404 10002 otherwise). */
    owned: (principal: Principal, applicationId: string) => Promise<ApplicationRecord>;
  },
) {
  const { storage, clock, ids, blobs, owned } = deps;
  return {
    /** GET /oauth2/applications/{id}/assets: anyone may list them, as on the platform. */
    async list(applicationId: string) {
      const application = isSnowflake(applicationId)
        ? await storage.applications.findById(applicationId)
        : null;
      if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
      const assets = await storage.applicationAssets.listByApplication(application.id);
      return assets.map(serializeAsset);
    },

    async create(principal: Principal, applicationId: string, input: CreateAssetInput) {
      const application = await owned(principal, applicationId);
      const image = decodeImage('image', input.image, { types: ASSET_IMAGE_TYPES });
      const asset: ApplicationAssetRecord = {
        id: ids(),
        applicationId: application.id,
        type: input.type,
        name: input.name,
        extension: image.extension,
        createdAt: clock.now(),
      };
      return storage.transaction(async (tx) => {
        // The application's row lock: the count and the names hold until the insert.
        await tx.commands.lock(application.id);
        const existing = await tx.applicationAssets.listByApplication(application.id);
        if (existing.length >= MAX_APPLICATION_ASSETS) {
          throw invalidField(
            [],
            'APPLICATION_ASSETS_LIMIT',
            `An application holds at most ${MAX_APPLICATION_ASSETS} assets; delete one first.`,
          );
        }
        if (existing.some((other) => other.name === asset.name)) throw nameTaken();
        // The blob first: a failed insert leaves an unreachable file (the sweep removes it),
        // never an asset without its image.
        await putImage(blobs, assetKey(asset), image);
        try {
          await tx.applicationAssets.create(asset);
        } catch (err) {
          if (err instanceof StorageConflictError) throw nameTaken();
          throw err;
        }
        return serializeAsset(asset);
      });
    },

    async delete(principal: Principal, applicationId: string, assetId: string) {
      const application = await owned(principal, applicationId);
      await storage.transaction(async (tx) => {
        const deleted =
          isSnowflake(assetId) && (await tx.applicationAssets.delete(application.id, assetId));
        if (!deleted) throw new ApiError('UNKNOWN_ASSET');
        freeBlobsAfterCommit(tx, blobs, [assetKey({ applicationId: application.id, id: assetId })]);
      });
    },
  };
}

const ASSET_FILE = new RegExp(`^(\\d{1,20})\\.(${IMAGE_EXTENSION})$`);

/**
 * The platform's CDN path of an asset, `/app-assets/{application_id}/{asset_id}.{ext}` (outside
 * /api), in every extension and `?size=` as the other images; a deleted asset is gone at once.
 */
export function registerAssetCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; images: CdnImages },
): void {
  app.get(
    '/app-assets/:application_id/:file',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const { application_id: applicationId, file } = request.params as {
        application_id: string;
        file: string;
      };
      const [, assetId = '', extension] = ASSET_FILE.exec(file) ?? [];
      const asset =
        isSnowflake(applicationId) && isSnowflake(assetId)
          ? await options.storage.applicationAssets.findById(applicationId, assetId)
          : null;
      if (asset === null || extension === undefined) throw new ApiError('NOT_FOUND');
      return options.images.send(request, reply, {
        keys: [assetKey(asset)],
        animated: false,
        extension,
      });
    },
  );
}
