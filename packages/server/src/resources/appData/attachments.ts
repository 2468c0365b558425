/**
 * POST /applications/{id}/attachment (docs/applications.md#activity-attachments): an activity
 * uploads a file (a screenshot to share, say) and gets an attachment object back whose signed
 * URL serves it, as message attachments are served. The bytes are in the blob store under
 * `app-attachments/{id}`.
 */
import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import type { ApplicationAttachmentRecord, Storage } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks } from '../messages/index.js';
import { ownApplication } from './access.js';

export const appAttachmentKey = (id: string) => `app-attachments/${id}`;

const attachmentPath = (a: ApplicationAttachmentRecord) =>
  `/app-attachments/${a.applicationId}/${a.id}/${encodeURIComponent(a.filename)}`;

/** The width and height of a PNG, GIF or JPEG, or null. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 4 && bytes.readUInt16BE(0) === 0xffd8) {
    for (let at = 2; at + 9 < bytes.length;) {
      if (bytes.readUInt8(at) !== 0xff) return null;
      const marker = bytes.readUInt8(at + 1);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
      }
      at += 2 + bytes.readUInt16BE(at + 2);
    }
  }
  return null;
}

export function createAppAttachmentService(deps: ServiceDeps & { links: () => AttachmentLinks }) {
  const { storage, clock, ids, blobs } = deps;
  return {
    async upload(
      principal: Principal,
      applicationId: string,
      file: { filename: string; contentType: string; data: Buffer } | undefined,
    ) {
      const app =
        principal.kind === 'bearer'
          ? principal.applicationId === applicationId
            ? await storage.applications.findById(applicationId)
            : null
          : await ownApplication(storage, principal, applicationId);
      if (app === null) throw new ApiError('UNKNOWN_APPLICATION');
      if (file === undefined) {
        throw invalidField(['file'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      if (file.data.length === 0) throw new ApiError('INVALID_FILE_UPLOADED');
      const size = imageSize(file.data);
      const attachment: ApplicationAttachmentRecord = {
        id: ids(),
        applicationId: app.id,
        filename: file.filename.replace(/[\\/]/g, '_').slice(0, 256) || 'file',
        contentType: file.contentType,
        size: file.data.length,
        width: size?.width ?? null,
        height: size?.height ?? null,
        createdAt: clock.now(),
      };
      // The file goes first: a failed insert leaves an unreachable file, never a broken link.
      await blobs.put(appAttachmentKey(attachment.id), {
        bytes: file.data,
        contentType: file.contentType,
      });
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
      const blob = await deps.blobs.get(appAttachmentKey(found.id));
      if (blob === null) throw new ApiError('NOT_FOUND');
      const filename = found.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type('application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(blob.bytes);
    },
  );
}
