import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/index.js';
import { registerMultipart } from '../../http/multipart.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { WebhookRecord } from '../../storage/index.js';
import { AUTH, reasonOf } from '../access/index.js';
import {
  WebhookEditBody,
  WebhookMessageBody,
  readMessageBody,
  withFiles,
  type MessageRouteOptions,
  type MessageService,
} from '../messages/index.js';
import { createWebhookMessages } from './execute.js';
import { githubToExecute } from './github.js';
import type { InteractionWebhooks } from './port.js';
import {
  CreateWebhookBody,
  ExecuteQuery,
  ModifyWebhookBody,
  ModifyWebhookByTokenBody,
  WEBHOOK_LIMITS,
  WebhookMessageParams,
  WebhookMessageQuery,
  WebhookParams,
  WebhookTokenParams,
} from './schemas.js';
import type { WebhookService } from './service.js';
import { slackToExecute } from './slack.js';

/** What the webhook routes are built over. */
export interface WebhookRouteDeps {
  webhooks: WebhookService;
  messages: MessageService;
  /** The interactions' side of the token routes; absent: a non-webhook id is 10015. */
  interactions?: InteractionWebhooks | undefined;
  /** The upload limits and staging of multipart bodies (as the message routes'). */
  uploads: MessageRouteOptions;
}

/** Token routes: no auth. */
const TOKEN = { config: { auth: 'none' } } as const;
/** Executes: no auth, one bucket per webhook whoever sends (5 per 2 seconds). */
const EXECUTE = {
  config: {
    auth: 'none',
    rateLimit: { bucket: WEBHOOK_LIMITS.executeBucket, shared: true },
  },
} as const;

/** The Slack-compatible route's answer (a JSON string, as the OpenAPI document has it). */
const SLACK_OK = JSON.stringify('ok');

/**
 * /channels/{id}/webhooks, /guilds/{id}/webhooks and /webhooks/…: the 18 webhook operations.
 * A token route whose `{id}` is not an incoming webhook's is an interaction's (application id and
 * interaction token): it goes to `interactions`, or is 10015 without them.
 */
export function registerWebhookRoutes(api: FastifyInstance, deps: WebhookRouteDeps): void {
  const { webhooks, interactions } = deps;
  const webhookMessages = createWebhookMessages(deps.messages, (webhook, threadId) =>
    webhooks.targetChannel(webhook, threadId),
  );

  api.post('/channels/:channel_id/webhooks', AUTH, (request) =>
    webhooks.create(principalOf(request), {
      channelId: (request.params as { channel_id: string }).channel_id,
      input: parseInput(CreateWebhookBody, request.body ?? {}),
      reason: reasonOf(request),
    }),
  );
  api.get('/channels/:channel_id/webhooks', AUTH, (request) =>
    webhooks.listForChannel(
      principalOf(request),
      (request.params as { channel_id: string }).channel_id,
    ),
  );
  api.get('/guilds/:guild_id/webhooks', AUTH, (request) =>
    webhooks.listForGuild(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );
  api.get('/webhooks/:webhook_id', AUTH, (request) =>
    webhooks.get(principalOf(request), parseInput(WebhookParams, request.params).webhook_id),
  );
  api.patch('/webhooks/:webhook_id', AUTH, (request) =>
    webhooks.modify(principalOf(request), {
      webhookId: parseInput(WebhookParams, request.params).webhook_id,
      input: parseInput(ModifyWebhookBody, request.body ?? {}),
      reason: reasonOf(request),
    }),
  );
  api.delete('/webhooks/:webhook_id', AUTH, async (request, reply) => {
    await webhooks.delete(principalOf(request), {
      webhookId: parseInput(WebhookParams, request.params).webhook_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  /** The incoming webhook a token route names; null when the id is not a webhook's. */
  const webhookOf = (request: FastifyRequest) => {
    const { webhook_id, webhook_token } = parseInput(WebhookTokenParams, request.params);
    return webhooks.authorize(webhook_id, webhook_token);
  };
  /** The interactions' side of a token route, or 10015 without it. */
  const interactionSide = (): InteractionWebhooks => {
    if (interactions === undefined) throw new ApiError('UNKNOWN_WEBHOOK');
    return interactions;
  };
  const tokenOf = (request: FastifyRequest) => parseInput(WebhookTokenParams, request.params);

  api.get('/webhooks/:webhook_id/:webhook_token', TOKEN, async (request) => {
    const webhook = await webhookOf(request);
    if (webhook !== null) return webhooks.viewByToken(webhook);
    const { webhook_id, webhook_token } = tokenOf(request);
    return interactionSide().get(webhook_id, webhook_token);
  });
  api.patch('/webhooks/:webhook_id/:webhook_token', TOKEN, async (request) => {
    const webhook = await webhookOf(request);
    if (webhook === null) throw new ApiError('UNKNOWN_WEBHOOK');
    return webhooks.modifyByToken(
      webhook,
      parseInput(ModifyWebhookByTokenBody, request.body ?? {}),
    );
  });
  api.delete('/webhooks/:webhook_id/:webhook_token', TOKEN, async (request, reply) => {
    const webhook = await webhookOf(request);
    if (webhook === null) throw new ApiError('UNKNOWN_WEBHOOK');
    await webhooks.deleteByToken(webhook);
    return reply.status(204).send();
  });

  api.delete(
    '/webhooks/:webhook_id/:webhook_token/messages/:message_id',
    TOKEN,
    async (request, reply) => {
      const { webhook_id, webhook_token, message_id } = parseInput(
        WebhookMessageParams,
        request.params,
      );
      const query = parseInput(WebhookMessageQuery, request.query);
      const webhook = await webhookOf(request);
      if (webhook !== null) {
        await webhookMessages.delete(webhook, message_id, { threadId: query.thread_id });
      } else {
        await interactionSide().deleteMessage(webhook_id, webhook_token, message_id);
      }
      return reply.status(204).send();
    },
  );
  api.get('/webhooks/:webhook_id/:webhook_token/messages/:message_id', TOKEN, async (request) => {
    const { webhook_id, webhook_token, message_id } = parseInput(
      WebhookMessageParams,
      request.params,
    );
    const query = parseInput(WebhookMessageQuery, request.query);
    const webhook = await webhookOf(request);
    if (webhook !== null) {
      return webhookMessages.get(webhook, message_id, { threadId: query.thread_id });
    }
    return interactionSide().getMessage(webhook_id, webhook_token, message_id);
  });

  // Execute and message edits take files: the multipart parser exists only in this scope.
  void api.register(async (scope) => {
    await registerMultipart(scope);
    /** A JSON or multipart body; the caller checks the token before reading it. */
    const readBody = async (request: FastifyRequest) =>
      readMessageBody(request, deps.uploads, () => undefined);

    scope.post('/webhooks/:webhook_id/:webhook_token', EXECUTE, async (request, reply) => {
      const { webhook_id, webhook_token } = tokenOf(request);
      const query = parseInput(ExecuteQuery, request.query);
      const webhook = await webhookOf(request);
      // An interaction's token is checked before any file is read, as a webhook's is.
      if (webhook === null) await interactionSide().get(webhook_id, webhook_token);
      const { body, files } = await readBody(request);
      const message = await withFiles(files, () => {
        const input = parseInput(WebhookMessageBody, body);
        return webhook === null
          ? interactionSide().execute(webhook_id, webhook_token, { input, files })
          : webhookMessages.execute(
              webhook,
              { input, files },
              {
                threadId: query.thread_id,
                withComponents: query.with_components,
              },
            );
      });
      // An interaction's followup always answers with its message.
      if (query.wait === true || webhook === null) return message;
      return reply.status(204).send();
    });

    scope.patch(
      '/webhooks/:webhook_id/:webhook_token/messages/:message_id',
      TOKEN,
      async (request) => {
        const { webhook_id, webhook_token, message_id } = parseInput(
          WebhookMessageParams,
          request.params,
        );
        const query = parseInput(WebhookMessageQuery, request.query);
        const webhook = await webhookOf(request);
        if (webhook === null) await interactionSide().get(webhook_id, webhook_token);
        const { body, files } = await readBody(request);
        return withFiles(files, () => {
          const input = parseInput(WebhookEditBody, body);
          return webhook === null
            ? interactionSide().editMessage(webhook_id, webhook_token, message_id, {
                input,
                files,
              })
            : webhookMessages.edit(
                webhook,
                message_id,
                { input, files },
                {
                  threadId: query.thread_id,
                  withComponents: query.with_components,
                },
              );
        });
      },
    );

    scope.post('/webhooks/:webhook_id/:webhook_token/slack', EXECUTE, async (request, reply) => {
      const webhook = await requireIncoming(request);
      const query = parseInput(ExecuteQuery, request.query);
      const { body, files } = await readBody(request);
      const raw = (body ?? {}) as Record<string, unknown>;
      const slack = typeof raw['payload'] === 'string' ? parsePayload(raw['payload']) : raw;
      // Slack's format carries no files: any sent are discarded.
      await withFiles(files, () =>
        webhookMessages.execute(
          webhook,
          { input: slackToExecute(slack), files: [] },
          { threadId: query.thread_id },
        ),
      );
      return reply.type('application/json').send(SLACK_OK);
    });

    scope.post('/webhooks/:webhook_id/:webhook_token/github', EXECUTE, async (request, reply) => {
      const webhook = await requireIncoming(request);
      const query = parseInput(ExecuteQuery, request.query);
      const event = request.headers['x-github-event'];
      const input = githubToExecute(typeof event === 'string' ? event : '', request.body ?? {});
      if (input !== null) {
        await webhookMessages.execute(webhook, { input, files: [] }, { threadId: query.thread_id });
      }
      return reply.status(204).send();
    });
  });

  /** The incoming webhook of a Slack or GitHub route: interactions have none (10015). */
  async function requireIncoming(request: FastifyRequest): Promise<WebhookRecord> {
    const webhook = await webhookOf(request);
    if (webhook === null) throw new ApiError('UNKNOWN_WEBHOOK');
    return webhook;
  }
}

/** Slack's form field `payload`: JSON, or 50109 when it is not. */
function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    throw new ApiError('INVALID_JSON');
  }
}
