/**
 * The address the client frames for an instance: the frame relay on the app's activity origin
 * (packages/server/src/activities/frameRelay.ts), with the query the embedded app SDK reads
 * (`instance_id`, `frame_id`, `platform`, `channel_id`, `guild_id`, `location_id`, `launch_id`),
 * the proxy ticket (`discord_proxy_ticket`) and the client's origin, which the relay posts to. The relay frames the activity at `/` with
 * the same query. Docs: docs/activities.md#the-frame.
 *
 * @module
 */
import type { ActivityInstance } from './api.js';

/** The relay page's path on every activity origin (frameRelay.ts's FRAME_RELAY_PATH). */
export const FRAME_RELAY_PATH = '/.guildhall/frame';

/** What the activity's frame may do (the relay's frame inherits it): no top navigation. */
export const FRAME_SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-pointer-lock allow-modals';

/** Features the client grants the activity (the relay passes them on). */
export const FRAME_ALLOW =
  'autoplay; clipboard-write; encrypted-media; fullscreen; gamepad; web-share';

/**
 * The relay's address for an instance; `ticket` (a proxy ticket, or null when none could be had)
 * rides along as `discord_proxy_ticket`, so that the activity's page and its requests carry it.
 */
export function frameUrl(
  instance: ActivityInstance,
  frame: { frameId: string; clientOrigin: string; ticket: string | null },
): string {
  const { frameId, clientOrigin, ticket } = frame;
  const params = new URLSearchParams({
    instance_id: instance.instance_id,
    location_id: instance.location.id,
    launch_id: instance.launch_id,
    frame_id: frameId,
    platform: 'desktop',
  });
  const guildId = instance.location.guild_id ?? null;
  if (guildId !== null) params.set('guild_id', guildId);
  params.set('channel_id', instance.location.channel_id);
  if (ticket !== null) params.set('discord_proxy_ticket', ticket);
  params.set('client_origin', clientOrigin);
  return `${instance.activity_origin}${FRAME_RELAY_PATH}?${params.toString()}`;
}
