import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import {
  isMultipart,
  payloadJson,
  registerMultipart,
  streamMultipart,
  type StreamedFile,
} from '../../http/multipart.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { localeOf } from '../commands/index.js';
import { CommandIndexParams, InvokeBody } from './schemas.js';
import type { InteractionService } from './service.js';

/** Only a person's session token invokes (the platform's own client); bots and apps cannot. */
const SESSION = { config: { auth: ['session'] } } as const;
/** The most files one interaction carries (a modal's File Uploads: 5 × up to 10). */
const MAX_UPLOADS = 10;

export interface InteractionRouteOptions {
  /** The largest file, in bytes. */
  maxAttachmentBytes: number;
  /** The most one request may upload in all. */
  maxUploadBytes: number;
  /** The largest payload_json, in bytes. */
  maxPayloadBytes: number;
  /** Where files stream to while the request is read. */
  blobs: BlobStore;
}

/** A JSON body, or payload_json with files[n] streamed to staging. */
async function readBody(
  request: FastifyRequest,
  options: InteractionRouteOptions,
): Promise<{ body: unknown; files: StreamedFile[] }> {
  if (!isMultipart(request)) return { body: request.body ?? {}, files: [] };
  const form = await streamMultipart(request, {
    maxFileBytes: options.maxAttachmentBytes,
    maxFiles: MAX_UPLOADS,
    maxFieldBytes: options.maxPayloadBytes,
    maxTotalBytes: options.maxUploadBytes,
    stage: (source) => options.blobs.stage(source),
  });
  const payload = form.fields['payload_json'] === undefined ? form.fields : payloadJson(form);
  return { body: payload, files: form.files };
}

/** POST /interactions: a person invokes an app's command, component or modal. */
export function registerInteractionRoutes(
  app: FastifyInstance,
  interactions: InteractionService,
  options: InteractionRouteOptions,
): void {
  // Modal submits carry files: the multipart parser exists only in this scope.
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post('/interactions', SESSION, async (request, reply) => {
      const { body, files } = await readBody(request, options);
      try {
        await interactions.invoke(principalOf(request), parseInput(InvokeBody, body), files);
      } finally {
        // What was not stored (all of it on error) leaves staging.
        await Promise.all(files.map((file) => file.blob.discard()));
      }
      return reply.status(204).send();
    });
  });

  // The commands the caller may use in a channel (docs/commands.md#the-command-index).
  app.get('/channels/:channel_id/application-command-index', SESSION, async (request) =>
    interactions.commandIndex(principalOf(request), {
      channelId: parseInput(CommandIndexParams, request.params).channel_id,
      view: localeOf(request),
    }),
  );
}
