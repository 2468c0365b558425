/**
 * POST /applications/{id}/attachment (docs/applications.md#activity-attachments): an activity
 * uploads a file (a screenshot to share, say) and gets an attachment object back whose signed
 * URL serves it, as message attachments are served. The bytes are in the blob store under
 * `app-attachments/{id}`.
 */
import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import type { BlobStore, StagedBlob } from '../../blobs/index.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import type { ApplicationAttachmentRecord, Storage } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks } from '../messages/index.js';
import { ownApplication } from './access.js';
import { imageSizeProbe, type ImageSize } from './imageSize.js';

export const appAttachmentKey = (id: string) => `app-attachments/${id}`;

const attachmentPath = (a: ApplicationAttachmentRecord) =>
  `/app-attachments/${a.applicationId}/${a.id}/${encodeURIComponent(a.filename)}`;

/** A file staged with its image size, read on the way in (null: not a PNG, GIF or JPEG). */
export interface MeasuredBlob extends StagedBlob {
  readonly image: ImageSize | null;
}

/**
 * The application a caller may upload for: its bot, its owner's session, a Bearer token granted
 * to it, or the session of a person taking part in one of its live activity instances (the
 * client uploads for the activity: INITIATE_IMAGE_UPLOAD). Anyone else, or an unknown id, is
 * 10002.
 */
async function uploaderApplication(storage: Storage, principal: Principal, applicationId: string) {
  if (principal.kind === 'session') {
    const live = await storage.activities.listLiveInstancesOfUser(principal.user.id);
    if (live.some((instance) => instance.applicationId === applicationId)) {
      const app = await storage.applications.findById(applicationId);
      if (app !== null) return app;
    }
  }
  if (principal.kind !== 'bearer') return ownApplication(storage, principal, applicationId);
  const app =
    principal.applicationId === applicationId
      ? await storage.applications.findById(applicationId)
      : null;
  if (app === null) throw new ApiError('UNKNOWN_APPLICATION');
  return app;
}

export function createAppAttachmentService(deps: ServiceDeps & { links: () => AttachmentLinks }) {
  const { storage, clock, ids, blobs } = deps;
  return {
    /**
     * Checks the caller may upload for the application, before the route reads a byte of the
     * body (a stranger's upload costs no memory or disk).
     */
    async uploadGate(principal: Principal, applicationId: string): Promise<void> {
      await uploaderApplication(storage, principal, applicationId);
    },

    /** Streams one file into the blob store's staging folder, measuring an image on the way. */
    async stage(source: Readable): Promise<MeasuredBlob> {
      const probe = imageSizeProbe();
      async function* measured() {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          probe.push(chunk);
          yield chunk;
        }
      }
      const blob = await blobs.stage(Readable.from(measured()));
      return {
        size: blob.size,
        commit: (key, contentType) => blob.commit(key, contentType),
        discard: () => blob.discard(),
        image: probe.end(),
      };
    },

    /** Stores a staged file as an activity attachment of the application (it commits the file). */
    async upload(
      principal: Principal,
      applicationId: string,
      file: StreamedFile<MeasuredBlob> | undefined,
    ) {
      const app = await uploaderApplication(storage, principal, applicationId);
      if (file === undefined) {
        throw invalidField(['file'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      if (file.blob.size === 0) throw new ApiError('INVALID_FILE_UPLOADED');
      const size = file.blob.image;
      const attachment: ApplicationAttachmentRecord = {
        id: ids(),
        applicationId: app.id,
        filename: file.filename.replace(/[\\/]/g, '_').slice(0, 256) || 'file',
        contentType: file.contentType,
        size: file.blob.size,
        width: size?.width ?? null,
        height: size?.height ?? null,
        createdAt: clock.now(),
      };
      // The file goes first: a failed insert leaves an unreachable file, never a broken link.
      await file.blob.commit(appAttachmentKey(attachment.id), file.contentType);
      await storage.applicationAttachments.create(attachment);
      const links = deps.links();
      const url = `${links.baseUrl}${links.signer.sign(attachmentPath(attachment))}`;
      return {
        attachment: {
          id: attachment.id,
          filename: attachment.filename,
          size: attachment.size,
          url,
          proxy_url: url,
          content_type: attachment.contentType,
          ...(size === null ? {} : { width: size.width, height: size.height }),
        },
      };
    },
  };
}

export type AppAttachmentService = ReturnType<typeof createAppAttachmentService>;

/** The signed CDN path of activity attachments; a download, never rendered here. */
export function registerAppAttachmentCdnRoutes(
  app: FastifyInstance,
  deps: { storage: Storage; blobs: BlobStore; signer: AttachmentLinks['signer'] },
): void {
  app.get(
    '/app-attachments/:application_id/:attachment_id/:filename',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const params = request.params as {
        application_id: string;
        attachment_id: string;
        filename: string;
      };
      const path = request.url.split('?', 1)[0] ?? '';
      if (
        !isSnowflake(params.attachment_id) ||
        !deps.signer.verify(path, request.query as Record<string, unknown>)
      ) {
        throw new ApiError('NOT_FOUND');
      }
      const found = await deps.storage.applicationAttachments.findById(params.attachment_id);
      if (found?.applicationId !== params.application_id || found.filename !== params.filename) {
        throw new ApiError('NOT_FOUND');
      }
      const blob = await deps.blobs.read(appAttachmentKey(found.id));
      if (blob === null) throw new ApiError('NOT_FOUND');
      const filename = found.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type('application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('content-length', blob.size)
        .send(blob.stream);
    },
  );
}
