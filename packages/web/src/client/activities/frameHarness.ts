/**
 * Test support for the frame protocol's tests: a FrameHost with abilities made of plain values
 * (each overridable), the frames it posts, and `sdkParses`: what the embedded app SDK does with a
 * command's answer (its own zod schemas; a throw means the SDK would reject it).
 *
 * @module
 */
import { Responses } from '@discord/embedded-app-sdk';
import {
  FrameHost,
  type FrameAbilities,
  type FrameContext,
  type FrameMessage,
  type OAuthMe,
  type PresenceActivity,
} from './frameProtocol.js';

export const APP = '100000000000000001';
export const ME = '200000000000000002';
export const CONTEXT = {
  applicationId: APP,
  frameId: 'frame-1',
  instanceId: 'i-1-gc-3-4',
  channelId: '400000000000000004',
  guildId: '300000000000000003',
};

export const ME_ANSWER: OAuthMe = {
  application: { id: APP, name: 'Tiles', icon: null, description: 'A game' },
  scopes: ['identify', 'rpc.activities.write'],
  expires: '2026-12-01T00:00:00.000Z',
  user: { id: ME, username: 'ada', discriminator: '0', avatar: null, global_name: 'Ada' },
};

const READY_USER = { id: ME, username: 'ada', discriminator: '0', avatar: null };

/** The app's one SKU on sale, and the entitlement a purchase of it makes. */
export const SKU = {
  id: '500000000000000005',
  name: 'Sword',
  type: 2,
  price: { amount: 0, currency: 'usd' },
  application_id: APP,
  flags: 4,
  release_date: null,
};
export const ENTITLEMENT = {
  id: '600000000000000006',
  sku_id: SKU.id,
  application_id: APP,
  user_id: ME,
  gift_code_flags: 0,
  type: 4,
  starts_at: '2026-12-01T00:00:00.000Z',
  ends_at: null,
  consumed: false,
  deleted: false,
};

/** The link an uploaded image gets (a signed attachment URL). */
/** The ticket REQUEST_PROXY_TICKET_REFRESH answers. */
export const PROXY_TICKET = 'eyJ1c2VyX2lkIjoiMSJ9.c2lnbmF0dXJl';
export const IMAGE_URL = `http://127.0.0.1:3000/app-attachments/${APP}/700000000000000007/a.png?ex=1`;

export function harness(overrides: Partial<FrameAbilities> = {}, context: FrameContext = CONTEXT) {
  const posted: FrameMessage[] = [];
  const presences: (PresenceActivity | null)[] = [];
  const logs: string[] = [];
  const abilities: FrameAbilities = {
    ready: () => ({
      config: {
        cdn_host: '127.0.0.1:3000',
        api_endpoint: '//127.0.0.1:3000/api',
        environment: 'production',
      },
      user: { id: ME, username: 'ada', discriminator: '0', avatar: null },
    }),
    authorize: () => Promise.resolve({ code: 'the-code' }),
    oauthMe: (token) => Promise.resolve(token === 'good' ? ME_ANSWER : null),
    currentUserId: () => ME,
    channel: (id) =>
      id === CONTEXT.channelId
        ? { id, type: 2, guild_id: CONTEXT.guildId, name: 'Lounge', voice_states: [], messages: [] }
        : null,
    participants: () => [
      {
        id: ME,
        username: 'ada',
        discriminator: '0',
        global_name: 'Ada',
        avatar: null,
        flags: 0,
        bot: false,
      },
    ],
    relationships: () => [],
    locale: () => 'en-GB',
    channelPermissions: () => 1n << 39n,
    setActivity: (activity) => {
      presences.push(activity);
    },
    openExternalLink: () => Promise.resolve(true),
    captureLog: (level, message) => {
      logs.push(`${level}:${message}`);
    },
    currentEvent: (evt) =>
      evt === 'ORIENTATION_UPDATE' ? { screen_orientation: 1, orientation: 'landscape' } : null,
    closed: () => undefined,
    skus: () => Promise.resolve([SKU]),
    entitlements: () => Promise.resolve([]),
    purchase: (skuId) =>
      Promise.resolve(skuId === SKU.id ? [{ ...ENTITLEMENT, sku_id: skuId }] : null),
    user: (id) => (id === ME ? { ...READY_USER, global_name: 'Ada', flags: 0, bot: false } : null),
    inviteDialog: () => Promise.resolve(),
    inviteUser: () => Promise.resolve(),
    shareLink: () => Promise.resolve({ success: true, didCopyLink: true, didSendMessage: false }),
    hardwareAcceleration: () => true,
    proxyTicket: () => Promise.resolve(PROXY_TICKET),
    uploadImage: () => Promise.resolve(IMAGE_URL),
    shareMoment: () => Promise.resolve(),
    shareInteraction: () => Promise.resolve(true),
    ...overrides,
  };
  const host = new FrameHost({
    context,
    abilities,
    post: (m) => posted.push(m),
    now: () => 1_000,
  });
  const handshake = () => {
    host.receive([0, { v: 1, encoding: 'json', client_id: APP, frame_id: 'frame-1' }]);
  };
  let nonce = 0;
  /** Sends a command and resolves with its answer (the posted frame with that nonce). */
  const send = async (cmd: string, args: Record<string, unknown> = {}, evt?: string) => {
    const id = `n${++nonce}`;
    host.receive([1, { cmd, args, nonce: id, ...(evt === undefined ? {} : { evt }) }]);
    for (let i = 0; i < 10; i++) {
      const answer = posted.find((m) => m[1]['nonce'] === id);
      if (answer !== undefined) return answer[1];
      await Promise.resolve();
    }
    throw new Error(`no answer to ${cmd}`);
  };
  return { host, posted, presences, logs, handshake, send };
}

/** What the SDK does with a command's answer: a throw means the SDK would reject it. */
export function sdkParses(frame: Record<string, unknown>) {
  return Responses.parseResponsePayload(Responses.ResponseFrame.parse(frame));
}
