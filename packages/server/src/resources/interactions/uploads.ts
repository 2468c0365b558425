/**
 * Files a person uploads with an interaction (docs/interactions.md#uploads): the multipart body's
 * files[n], which `data.attachments` lists as `{id: n, filename}` and which an attachment option
 * (type 11) or a modal's File Upload (type 19) names by that id. Each file gets an attachment id
 * (a snowflake, which replaces n everywhere in `data` before it is checked), is stored under
 * `interaction-attachments/{interaction}/{attachment}` and served at a signed URL while the
 * interaction lives; the blob sweep removes it once the interaction row is gone.
 */
import { isSnowflake } from '@guildhall/protocol';
import type { APIAttachment } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import type { IdGenerator } from '../../domain/snowflakes.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import type { Storage } from '../../storage/index.js';
import type { AttachmentLinks } from '../messages/index.js';
import type { WireShape } from '../wireShape.js';

/** Command option type ATTACHMENT and component type FILE_UPLOAD, whose values name uploads. */
const ATTACHMENT_OPTION = 11;
const FILE_UPLOAD = 19;

/** The blob key of an interaction's uploaded file. */
export function interactionAttachmentKey(interactionId: string, attachmentId: string): string {
  return `interaction-attachments/${interactionId}/${attachmentId}`;
}

/** Where an uploaded file is served (before its signature). */
function attachmentPath(interactionId: string, attachmentId: string, filename: string): string {
  return `/interaction-attachments/${interactionId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

/** One upload: its staged file and its attachment object. */
export interface Upload {
  file: StreamedFile;
  wire: WireShape<APIAttachment>;
}

/** Replaces upload references (`n`) by attachment ids in an option tree or a component tree. */
function renamed(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, ids));
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(node)) out[key] = renamed(field, ids);
  const swap = (id: unknown) => (typeof id === 'string' ? (ids.get(id) ?? id) : id);
  if (node['type'] === ATTACHMENT_OPTION && typeof node['value'] === 'string') {
    out['value'] = swap(node['value']);
  }
  if (node['type'] === FILE_UPLOAD && Array.isArray(node['values'])) {
    out['values'] = node['values'].map(swap);
  }
  return out;
}

/**
 * Gives each uploaded file its attachment object and rewrites `data` to name attachment ids.
 * `data.attachments` must list every file once (50035 otherwise).
 */
export function prepareUploads(
  request: {
    interactionId: string;
    data: Record<string, unknown>;
    files: readonly StreamedFile[];
  },
  deps: { ids: IdGenerator; links: AttachmentLinks },
): { data: Record<string, unknown>; uploads: Map<string, Upload> } {
  const { files, interactionId } = request;
  const listed = request.data['attachments'];
  const refs = Array.isArray(listed) ? (listed as { id?: unknown; filename?: unknown }[]) : [];
  if (files.length === 0 && refs.length === 0) return { data: request.data, uploads: new Map() };
  const ids = new Map<string, string>();
  const uploads = new Map<string, Upload>();
  refs.forEach((ref, index) => {
    const at = ['data', 'attachments', index];
    const n = typeof ref.id === 'number' ? String(ref.id) : ref.id;
    const file = files.find((f) => String(f.index) === n);
    if (typeof n !== 'string' || file === undefined || ids.has(n)) {
      throw invalidField(
        [...at, 'id'],
        'ATTACHMENT_NOT_FOUND',
        'No file was uploaded for this id.',
      );
    }
    const filename = typeof ref.filename === 'string' ? ref.filename : file.filename;
    const id = deps.ids();
    ids.set(n, id);
    const url = `${deps.links.baseUrl}${deps.links.signer.sign(
      attachmentPath(interactionId, id, filename),
    )}`;
    uploads.set(id, {
      file,
      wire: {
        id,
        filename,
        size: file.blob.size,
        url,
        proxy_url: url,
        content_type: file.contentType,
        ephemeral: true,
      },
    });
  });
  if (uploads.size !== files.length) {
    throw invalidField(
      ['data', 'attachments'],
      'ATTACHMENT_NOT_FOUND',
      'Every file must be listed.',
    );
  }
  // The list has served: `data` now names attachment ids, resolved by `resolved.attachments`.
  const rest = Object.fromEntries(
    Object.entries(request.data).filter(([key]) => key !== 'attachments'),
  );
  return { data: renamed(rest, ids) as Record<string, unknown>, uploads };
}

/** Moves the staged files under their keys; `undo` removes them again (a failed write). */
export async function storeUploads(
  blobs: BlobStore,
  request: { interactionId: string; uploads: ReadonlyMap<string, Upload> },
): Promise<{ undo: () => Promise<void> }> {
  const keys = [...request.uploads.keys()].map((id) =>
    interactionAttachmentKey(request.interactionId, id),
  );
  await Promise.all(
    [...request.uploads.values()].map(({ file, wire }) =>
      file.blob.commit(
        interactionAttachmentKey(request.interactionId, wire.id),
        wire.content_type ?? 'application/octet-stream',
      ),
    ),
  );
  return {
    undo: async () => {
      await Promise.all(keys.map((key) => blobs.delete(key)));
    },
  };
}

/**
 * GET /interaction-attachments/{interaction}/{attachment}/{filename}: an uploaded file, while
 * its interaction lives and with a valid signature; 404 otherwise.
 */
export function registerInteractionAttachmentRoutes(
  app: FastifyInstance,
  deps: { storage: Storage; blobs: BlobStore; signer: AttachmentLinks['signer'] },
): void {
  app.get(
    '/interaction-attachments/:interaction_id/:attachment_id/:filename',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const params = request.params as {
        interaction_id: string;
        attachment_id: string;
        filename: string;
      };
      if (!isSnowflake(params.interaction_id) || !isSnowflake(params.attachment_id)) {
        throw new ApiError('NOT_FOUND');
      }
      const path = request.url.split('?', 1)[0] ?? '';
      if (!deps.signer.verify(path, request.query as Record<string, unknown>)) {
        throw new ApiError('NOT_FOUND');
      }
      const interaction = await deps.storage.interactions.findById(params.interaction_id);
      const data = interaction?.payload['data'] as
        { resolved?: { attachments?: Record<string, { filename?: string }> } } | undefined;
      const listed = data?.resolved?.attachments?.[params.attachment_id];
      if (listed?.filename !== params.filename) throw new ApiError('NOT_FOUND');
      const blob = await deps.blobs.read(
        interactionAttachmentKey(params.interaction_id, params.attachment_id),
      );
      if (blob === null) throw new ApiError('NOT_FOUND');
      const filename = params.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      // Never rendered by the browser here: a person's upload is downloaded.
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
