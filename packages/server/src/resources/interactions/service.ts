/**
 * POST /interactions: a person invokes an app (docs/interactions.md#invoking). The request is
 * checked (the place, then the type's own rules), the interaction is stored (its token only as
 * a hash) and delivered once: by signed HTTP POST to the app's interactions endpoint URL, whose
 * answer is the initial response, or else as INTERACTION_CREATE to one shard of the app's bot.
 * An app with neither a URL nor a bot fails the interaction at once; the 3-second rule fails
 * the others that get no response in time (lifecycle.ts).
 */
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { InteractionRecord, NewInteraction } from '../../storage/index.js';
import { CommandType, type LocalizationView } from '../commands/index.js';
import { recipientUsers } from '../dms/index.js';
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks } from '../messages/index.js';
import type { HandleCallback } from './callback.js';
import { INTERACTION_TOKEN_TTL_MS, type InteractionLifecycle } from './lifecycle.js';
import { serializeEntitlement } from '../monetization/index.js';
import { buildInteraction, newInteractionToken, withToken } from './payload.js';
import { loadCommandIndex, type CommandIndex } from './commandIndex.js';
import { loadInvocationPlace, type InvocationPlace } from './place.js';
import { prepareData } from './prepare.js';
import { interactionMetadata } from './responseAuthor.js';
import { HTTP_ACCEPTED, readEndpointAnswer } from './answer.js';
import type { InteractionActivities, InteractionsEndpoint } from './ports.js';
import { messagesAsAppSees } from './resolved.js';
import { InteractionTypes, type InvokeInput } from './schemas.js';
import { prepareUploads, storeUploads } from './uploads.js';

/** What the interactions service is built from besides ServiceDeps. */
export interface InteractionServiceDeps extends ServiceDeps {
  lifecycle: InteractionLifecycle;
  endpoint: InteractionsEndpoint;
  /** The app's initial response, from its endpoint's answer (callback.ts). */
  handleCallback: HandleCallback;
  /** What an entry point command with the DISCORD_LAUNCH_ACTIVITY handler launches. */
  activities: InteractionActivities;
  links: () => AttachmentLinks;
  /** The largest file a user may upload, in bytes (`attachment_size_limit`). */
  attachmentSizeLimit: number;
  /** Told when a delivery went wrong on our side (the interaction has failed for the user). */
  onDeliveryError: (err: unknown, interactionId: string) => void;
}

/** PRIMARY_ENTRY_POINT handlers: 2 launches the activity without an interaction to the app. */
const DISCORD_LAUNCH_ACTIVITY = 2;

export function createInteractionService(deps: InteractionServiceDeps) {
  const { storage, clock, ids, lifecycle, endpoint } = deps;

  /**
   * Whether the command is an entry point the platform handles (DISCORD_LAUNCH_ACTIVITY): then
   * the activity is launched and the app hears nothing (docs/commands.md).
   */
  const launchedByPlatform = async (place: InvocationPlace, data: Record<string, unknown>) => {
    if (data['type'] !== CommandType.PRIMARY_ENTRY_POINT || typeof data['id'] !== 'string') {
      return false;
    }
    const command = await storage.commands.findById(place.application.id, data['id']);
    return command?.handler === DISCORD_LAUNCH_ACTIVITY;
  };

  /** Launches the app's activity for the invoker; the client hears INTERACTION_SUCCESS too. */
  const launchActivity = async (
    place: InvocationPlace,
    request: { id: string; userId: string; nonce: string | null },
  ) => {
    await storage.transaction(async (tx) => {
      await deps.activities.launch(tx, {
        applicationId: place.application.id,
        userId: request.userId,
        access: place.access,
      });
      afterCommit(tx, {
        type: 'INTERACTION_SUCCESS',
        guildId: null,
        userIds: [request.userId],
        data: { id: request.id, nonce: request.nonce },
      });
    });
  };
  const inFlight = new Set<Promise<void>>();

  /** Runs a delivery in the background, remembered until it settles (for `close`). */
  const track = (interactionId: string, work: Promise<unknown>) => {
    const tracked = work.then(
      () => undefined,
      (err: unknown) => {
        deps.onDeliveryError(err, interactionId);
      },
    );
    inFlight.add(tracked);
    void tracked.then(() => inFlight.delete(tracked));
  };

  /** The signed POST; the answer is handed to the callback handler, or the interaction fails. */
  const deliverByHttp = async (
    interaction: InteractionRecord,
    request: { url: string; body: string },
  ) => {
    const application = await storage.applications.findById(interaction.applicationId);
    if (application === null) {
      await lifecycle.fail(interaction);
      return;
    }
    lifecycle.watch(interaction);
    const answer = await endpoint.deliver(application, {
      ...request,
      timeoutMs: lifecycle.ackDeadlineMs,
    });
    // 202 Accepted: the app answers through the callback route instead, by the same deadline.
    if (answer.status === HTTP_ACCEPTED) return;
    const response = await readEndpointAnswer(answer, deps.blobs, deps.attachmentSizeLimit);
    if (response === null) {
      await lifecycle.fail(interaction);
      return;
    }
    try {
      await deps.handleCallback(interaction, response.body, response.files);
    } catch (err) {
      // A response the platform refuses is no response: the interaction fails.
      await lifecycle.fail(interaction);
      deps.onDeliveryError(err, interaction.id);
    } finally {
      await Promise.all(response.files.map((file) => file.blob.discard()));
    }
  };

  return {
    /** GET /channels/{channel_id}/application-command-index (commandIndex.ts). */
    commandIndex(
      principal: Principal,
      request: { channelId: string; view: LocalizationView },
    ): Promise<CommandIndex> {
      return loadCommandIndex(storage, {
        ...request,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
    },
    /**
     * POST /interactions. Throws the platform's errors when the request does not hold (and
     * stores nothing then); resolves once the interaction is stored and on its way.
     */
    async invoke(
      principal: Principal,
      input: InvokeInput,
      files: readonly StreamedFile[] = [],
    ): Promise<{ id: string }> {
      const nowMs = clock.now();
      const userId = principal.user.id;
      const links = deps.links();
      const commands =
        input.type === InteractionTypes.APPLICATION_COMMAND ||
        input.type === InteractionTypes.APPLICATION_COMMAND_AUTOCOMPLETE;
      const place = await loadInvocationPlace(storage, {
        applicationId: input.application_id,
        channelId: input.channel_id,
        guildId: input.guild_id ?? null,
        userId,
        nowMs,
        commands,
      });
      const id = ids();
      const { data, uploads } = prepareUploads(
        { interactionId: id, data: input.data, files },
        { ids, links },
      );
      const prepared = await prepareData(storage, {
        place,
        input: { ...input, data },
        userId,
        nowMs,
        links,
        attachments: new Map([...uploads].map(([key, upload]) => [key, upload.wire])),
      });
      if (
        input.type === InteractionTypes.APPLICATION_COMMAND &&
        (await launchedByPlatform(place, prepared.data))
      ) {
        await launchActivity(place, { id, userId, nonce: input.nonce ?? null });
        return { id };
      }
      const { access } = place;
      const [guild, overwrites, recipients, message, entitlements] = await Promise.all([
        access.guildId === null ? null : storage.guilds.findById(access.guildId),
        access.guildId === null ? [] : storage.overwrites.listByChannel(access.channel.id),
        access.privateChannel === null
          ? new Map()
          : recipientUsers(storage, [access.privateChannel]),
        prepared.message === null
          ? null
          : messagesAsAppSees(storage, { place, messages: [prepared.message], links }),
        storage.entitlements.listInForce(
          place.application.id,
          { userId, guildId: access.guildId },
          nowMs,
        ),
      ]);
      const payload = buildInteraction({
        id,
        type: input.type,
        data: prepared.data,
        place,
        user: principal.user,
        member: access.member,
        guild,
        overwrites,
        recipients,
        message: prepared.message === null ? null : (message?.[prepared.message.id] ?? null),
        attachmentSizeLimit: deps.attachmentSizeLimit,
        entitlements: entitlements.map(serializeEntitlement),
      });
      const token = newInteractionToken();
      const record: NewInteraction = {
        id,
        applicationId: place.application.id,
        type: input.type,
        tokenHash: hashSecret(token),
        userId,
        guildId: access.guildId,
        channelId: access.channel.id,
        messageId:
          input.type === InteractionTypes.MESSAGE_COMPONENT ? (prepared.message?.id ?? null) : null,
        nonce: input.nonce ?? null,
        payload,
        // What a modal submit's messages show of the interaction that showed the modal.
        triggeringMetadata:
          prepared.answered === null ? null : interactionMetadata(prepared.answered),
        createdAt: nowMs,
        ackDeadlineAt: nowMs + lifecycle.ackDeadlineMs,
        expiresAt: nowMs + INTERACTION_TOKEN_TTL_MS,
      };
      const created: InteractionRecord = {
        ...record,
        modal: null,
        modalCustomId: null,
        responseType: null,
        originalMessageId: null,
        failedAt: null,
      };
      const url = place.application.interactionsEndpointUrl;
      const botUserId = place.application.botUserId;
      const withItsToken = withToken(payload, token);
      const delivered = JSON.stringify(withItsToken);
      // Files first: a stored interaction never names a file that is not there.
      const stored = await storeUploads(deps.blobs, { interactionId: id, uploads });
      await storage
        .transaction(async (tx) => {
          await tx.interactions.create(record);
          // A modal is submitted once: of two submits at once, the second finds it gone.
          if (
            prepared.answered !== null &&
            !(await tx.interactions.clearModal(prepared.answered.id))
          ) {
            throw new ApiError('UNKNOWN_INTERACTION');
          }
          if (url === null && botUserId !== null) {
            afterWrite(tx, {
              type: 'INTERACTION_CREATE',
              guildId: null,
              userIds: [botUserId],
              shard: { guildId: access.guildId },
              data: withItsToken,
            });
          }
        })
        .catch(async (err: unknown) => {
          await stored.undo();
          throw err;
        });
      if (url !== null) track(id, deliverByHttp(created, { url, body: delivered }));
      else if (botUserId !== null) lifecycle.watch(created);
      else track(id, lifecycle.fail(created));
      return { id };
    },

    /** Waits for the deliveries under way (shutdown). */
    async close(): Promise<void> {
      await Promise.all([...inFlight]);
    },
  };
}

export type InteractionService = ReturnType<typeof createInteractionService>;
