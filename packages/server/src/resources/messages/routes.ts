import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import {
  isMultipart,
  payloadJson,
  registerMultipart,
  streamMultipart,
  type StreamedFile,
} from '../../http/multipart.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { AUTH, reasonOf } from '../access/index.js';
import { attachmentKey, mustDownload } from './attachments.js';
import type { AttachmentSigner } from './signedUrls.js';
import {
  BulkDeleteBody,
  ChannelParams,
  CreateMessageBody,
  EditMessageBody,
  ListMessagesQuery,
  ListPinsQuery,
  ListReactionsQuery,
  MAX_ATTACHMENTS,
  MessageParams,
  ReactionParams,
  ReactionUserParams,
} from './schemas.js';
import type { MessageService } from './service.js';
import type { PinService } from './pins.js';
import type { ReactionService } from './reactions.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import { CDN_CACHE_CONTROL } from '../imageVariants.js';

export interface MessageRouteOptions {
  /** The largest attachment, in bytes (GUILDHALL_MAX_ATTACHMENT_BYTES). */
  maxAttachmentBytes: number;
  /** The most one request may upload in all (GUILDHALL_MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** The largest payload_json, in bytes. */
  maxPayloadBytes: number;
  /** Where files stream to while the request is read. */
  blobs: BlobStore;
}

/**
 * A JSON body, or a multipart one (payload_json plus files[n]) whose files stream to staging.
 * `beforeFile` runs at the first file, before its bytes are read (a caller who may not attach
 * files is refused there).
 */
export async function readMessageBody(
  request: FastifyRequest,
  options: MessageRouteOptions,
  beforeFile: () => void,
): Promise<{ body: unknown; files: StreamedFile[] }> {
  if (!isMultipart(request)) return { body: request.body ?? {}, files: [] };
  const form = await streamMultipart(request, {
    maxFileBytes: options.maxAttachmentBytes,
    maxFiles: MAX_ATTACHMENTS,
    maxFieldBytes: options.maxPayloadBytes,
    maxTotalBytes: options.maxUploadBytes,
    stage: (source) => options.blobs.stage(source),
    beforeFile,
  });
  const payload = form.fields['payload_json'] === undefined ? form.fields : payloadJson(form);
  return { body: payload, files: form.files };
}

/** Runs `fn` with the files, then discards what it did not commit (all of them on error). */
export async function withFiles<T>(
  files: readonly StreamedFile[],
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } finally {
    await Promise.all(files.map((file) => file.blob.discard()));
  }
}

/** /channels/{id}/messages and /channels/{id}/typing. */
export function registerMessageRoutes(
  app: FastifyInstance,
  services: { messages: MessageService; reactions: ReactionService; pins: PinService },
  options: MessageRouteOptions,
): void {
  const { messages } = services;
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

  // Create and edit take files: the multipart parser exists only in this scope. The caller's
  // right to post is checked before the body is read, and to attach before a file's bytes are.
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post('/channels/:channel_id/messages', AUTH, async (request) => {
      const { channel_id } = parseInput(ChannelParams, request.params);
      const principal = principalOf(request);
      const gate = isMultipart(request)
        ? await messages.uploadGate(principal, { channelId: channel_id })
        : () => undefined;
      const { body, files } = await readMessageBody(request, options, gate);
      return withFiles(files, () =>
        messages.create(principal, {
          channelId: channel_id,
          input: parseInput(CreateMessageBody, body),
          files,
        }),
      );
    });
    scope.patch('/channels/:channel_id/messages/:message_id', AUTH, async (request) => {
      const params = parseInput(MessageParams, request.params);
      const principal = principalOf(request);
      const gate = isMultipart(request)
        ? await messages.uploadGate(principal, {
            channelId: params.channel_id,
            messageId: params.message_id,
          })
        : () => undefined;
      const { body, files } = await readMessageBody(request, options, gate);
      return withFiles(files, () =>
        messages.edit(principal, {
          channelId: params.channel_id,
          messageId: params.message_id,
          input: parseInput(EditMessageBody, body),
          files,
        }),
      );
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

  registerReactionRoutes(app, services.reactions);
  registerPinRoutes(app, services.pins);

  app.post('/channels/:channel_id/typing', AUTH, async (request) => {
    await messages.typing(
      principalOf(request),
      parseInput(ChannelParams, request.params).channel_id,
    );
    return {};
  });
}

/** Reactions on a message. */
function registerReactionRoutes(app: FastifyInstance, reactions: ReactionService): void {
  const base = '/channels/:channel_id/messages/:message_id/reactions';
  const target = (request: FastifyRequest) => {
    const params = parseInput(ReactionParams, request.params);
    return { channelId: params.channel_id, messageId: params.message_id, emoji: params.emoji };
  };

  app.put(`${base}/:emoji/@me`, AUTH, async (request, reply) => {
    await reactions.add(principalOf(request), target(request));
    return reply.status(204).send();
  });
  app.delete(`${base}/:emoji/@me`, AUTH, async (request, reply) => {
    await reactions.removeOwn(principalOf(request), target(request));
    return reply.status(204).send();
  });
  app.delete(`${base}/:emoji/:user_id`, AUTH, async (request, reply) => {
    const { user_id } = parseInput(ReactionUserParams, request.params);
    await reactions.removeUser(principalOf(request), { ...target(request), userId: user_id });
    return reply.status(204).send();
  });
  app.delete(`${base}/:emoji`, AUTH, async (request, reply) => {
    await reactions.removeAll(principalOf(request), target(request));
    return reply.status(204).send();
  });
  app.delete(base, AUTH, async (request, reply) => {
    const params = parseInput(MessageParams, request.params);
    await reactions.removeAll(principalOf(request), {
      channelId: params.channel_id,
      messageId: params.message_id,
    });
    return reply.status(204).send();
  });
  app.get(`${base}/:emoji`, AUTH, (request) => {
    const query = parseInput(ListReactionsQuery, request.query);
    return reactions.listUsers(principalOf(request), target(request), {
      limit: query.limit,
      type: query.type,
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });
}

/** Pins, paginated and deprecated, one service. */
function registerPinRoutes(app: FastifyInstance, pins: PinService): void {
  app.get('/channels/:channel_id/messages/pins', AUTH, (request) => {
    const query = parseInput(ListPinsQuery, request.query);
    return pins.list(principalOf(request), parseInput(ChannelParams, request.params).channel_id, {
      limit: query.limit,
      ...(query.before === undefined ? {} : { before: query.before }),
    });
  });
  app.get('/channels/:channel_id/pins', AUTH, (request) =>
    pins.listDeprecated(principalOf(request), parseInput(ChannelParams, request.params).channel_id),
  );
  for (const path of [
    '/channels/:channel_id/messages/pins/:message_id',
    '/channels/:channel_id/pins/:message_id',
  ]) {
    app.put(path, AUTH, async (request, reply) => {
      const params = parseInput(MessageParams, request.params);
      await pins.pin(principalOf(request), {
        channelId: params.channel_id,
        messageId: params.message_id,
        reason: reasonOf(request),
      });
      return reply.status(204).send();
    });
    app.delete(path, AUTH, async (request, reply) => {
      const params = parseInput(MessageParams, request.params);
      await pins.unpin(principalOf(request), {
        channelId: params.channel_id,
        messageId: params.message_id,
        reason: reasonOf(request),
      });
      return reply.status(204).send();
    });
  }
}

/**
 * The attachment CDN: /attachments/{channel_id}/{attachment_id}/{filename}, open only through a
 * URL the API handed out: its `ex`/`is`/`hm` query must sign the path and not have expired, and
 * the attachment must still exist in that channel under that name. Anything else is 404, as the
 * platform answers an expired or unsigned link ("This content is no longer available"), so a
 * probe learns nothing about which files exist. Served with the stored content type, `nosniff`,
 * and as a download for anything a browser would run (HTML, SVG, XML).
 */
export function registerAttachmentCdnRoutes(
  app: FastifyInstance,
  deps: { storage: Storage; blobs: BlobStore; signer: AttachmentSigner },
): void {
  app.get(
    '/attachments/:channel_id/:attachment_id/:filename',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const params = request.params as {
        channel_id: string;
        attachment_id: string;
        filename: string;
      };
      if (!isSnowflake(params.channel_id) || !isSnowflake(params.attachment_id)) {
        throw new ApiError('NOT_FOUND');
      }
      const path = request.url.split('?', 1)[0] ?? '';
      if (!deps.signer.verify(path, request.query as Record<string, unknown>)) {
        throw new ApiError('NOT_FOUND');
      }
      const owner = await deps.storage.messages.findAttachment(params.attachment_id);
      if (owner?.channelId !== params.channel_id || owner.filename !== params.filename) {
        throw new ApiError('NOT_FOUND');
      }
      const blob = await deps.blobs.read(attachmentKey(params.attachment_id));
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
        .header('cache-control', CDN_CACHE_CONTROL)
        .header('content-length', blob.size)
        .send(blob.stream);
    },
  );
}
