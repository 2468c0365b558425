import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import {
  isMultipart,
  payloadJson,
  readMultipart,
  registerMultipart,
  type UploadedFile,
} from '../../http/multipart.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { AUTH, reasonOf } from '../guilds/common.js';
import { attachmentKey, mustDownload } from './attachments.js';
import {
  BulkDeleteBody,
  ChannelParams,
  CreateMessageBody,
  EditMessageBody,
  ListMessagesQuery,
  MAX_ATTACHMENTS,
  MessageParams,
} from './schemas.js';
import type { MessageService } from './service.js';

export interface MessageRouteOptions {
  /** The largest attachment, in bytes (GUILDHALL_MAX_ATTACHMENT_BYTES). */
  maxAttachmentBytes: number;
  /** The largest payload_json, in bytes. */
  maxPayloadBytes: number;
}

/** A JSON body, or a multipart one (payload_json plus files[n]). */
async function readBody(
  request: FastifyRequest,
  options: MessageRouteOptions,
): Promise<{ body: unknown; files: UploadedFile[] }> {
  if (!isMultipart(request)) return { body: request.body ?? {}, files: [] };
  const form = await readMultipart(request, {
    maxFileBytes: options.maxAttachmentBytes,
    maxFiles: MAX_ATTACHMENTS,
    maxFieldBytes: options.maxPayloadBytes,
  });
  const payload = form.fields['payload_json'] === undefined ? form.fields : payloadJson(form);
  return { body: payload, files: form.files };
}

/** /channels/{id}/messages and /channels/{id}/typing. */
export function registerMessageRoutes(
  app: FastifyInstance,
  messages: MessageService,
  options: MessageRouteOptions,
): void {
  app.get('/channels/:channel_id/messages', AUTH, (request) =>
    messages.list(
      principalOf(request),
      parseInput(ChannelParams, request.params).channel_id,
      parseInput(ListMessagesQuery, request.query),
    ),
  );

  app.get('/channels/:channel_id/messages/:message_id', AUTH, (request) => {
    const params = parseInput(MessageParams, request.params);
    return messages.get(principalOf(request), params.channel_id, params.message_id);
  });

  // Create and edit take files: the multipart parser exists only in this scope.
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post('/channels/:channel_id/messages', AUTH, async (request) => {
      const { channel_id } = parseInput(ChannelParams, request.params);
      const { body, files } = await readBody(request, options);
      return messages.create(principalOf(request), {
        channelId: channel_id,
        input: parseInput(CreateMessageBody, body),
        files,
      });
    });
    scope.patch('/channels/:channel_id/messages/:message_id', AUTH, async (request) => {
      const params = parseInput(MessageParams, request.params);
      const { body, files } = await readBody(request, options);
      return messages.edit(principalOf(request), {
        channelId: params.channel_id,
        messageId: params.message_id,
        input: parseInput(EditMessageBody, body),
        files,
      });
    });
  });

  app.delete('/channels/:channel_id/messages/:message_id', AUTH, async (request, reply) => {
    const params = parseInput(MessageParams, request.params);
    await messages.delete(principalOf(request), {
      channelId: params.channel_id,
      messageId: params.message_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  app.post('/channels/:channel_id/messages/bulk-delete', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    await messages.bulkDelete(principalOf(request), {
      channelId: channel_id,
      messageIds: parseInput(BulkDeleteBody, request.body ?? {}).messages,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  app.post('/channels/:channel_id/typing', AUTH, async (request) => {
    await messages.typing(
      principalOf(request),
      parseInput(ChannelParams, request.params).channel_id,
    );
    return {};
  });
}

/**
 * The attachment CDN: /attachments/{channel_id}/{attachment_id}/{filename}, public like the
 * platform's. Served with the stored content type, `nosniff`, and as a download for anything a
 * browser would run (HTML, SVG, XML).
 */
export function registerAttachmentCdnRoutes(
  app: FastifyInstance,
  deps: { storage: Storage; blobs: BlobStore },
): void {
  app.get(
    '/attachments/:channel_id/:attachment_id/:filename',
    { config: { auth: 'none' } },
    async (request, reply) => {
      const params = request.params as {
        channel_id: string;
        attachment_id: string;
        filename: string;
      };
      if (!isSnowflake(params.channel_id) || !isSnowflake(params.attachment_id)) {
        throw new ApiError('NOT_FOUND');
      }
      const blob = await deps.blobs.get(attachmentKey(params.attachment_id));
      if (blob === null) throw new ApiError('NOT_FOUND');
      const download = mustDownload(blob.contentType);
      const filename = params.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type(download ? 'application/octet-stream' : blob.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header(
          'content-disposition',
          `${download ? 'attachment' : 'inline'}; filename="${filename}"`,
        )
        .header('cache-control', 'public, max-age=86400')
        .send(blob.bytes);
    },
  );
}
