/**
 * The store, user, invite, share, image, moment, interaction, config, proxy ticket and quest
 * commands of the frame protocol without a browser: each answer parsed by the embedded app SDK's
 * own schemas (as the SDK parses it), the ENTITLEMENT_CREATE a purchase sends, and the refusals.
 */
import { Common } from '@discord/embedded-app-sdk';
import { describe, expect, it } from 'vitest';
import {
  CONTEXT,
  ENTITLEMENT,
  harness,
  IMAGE_URL,
  ME,
  PROXY_TICKET,
  ME_ANSWER,
  sdkParses,
  SKU,
} from './frameHarness.js';
import { sdkGuildMember } from './sdkShapes.js';

/** A harness past AUTHENTICATE with `identify`. */
async function authenticated(
  overrides: Parameters<typeof harness>[0] = {},
  context?: Parameters<typeof harness>[1],
) {
  const h = harness(overrides, context);
  h.handshake();
  await h.send('AUTHENTICATE', { access_token: 'good' });
  return h;
}

describe('the store commands', () => {
  it('lists the SKUs and the entitlements in the SDK shapes', async () => {
    const { send } = await authenticated({ entitlements: () => Promise.resolve([ENTITLEMENT]) });
    const skus = await send('GET_SKUS_EMBEDDED');
    expect(sdkParses(skus).data).toEqual({ skus: [SKU] });
    const owned = await send('GET_ENTITLEMENTS_EMBEDDED');
    expect(sdkParses(owned).data).toEqual({ entitlements: [ENTITLEMENT] });
  });

  it('START_PURCHASE answers what was bought and sends ENTITLEMENT_CREATE', async () => {
    const { send, posted } = await authenticated();
    expect((await send('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE'))['data']).toEqual({
      evt: 'ENTITLEMENT_CREATE',
    });
    const bought = await send('START_PURCHASE', { sku_id: SKU.id });
    expect(sdkParses(bought).data).toEqual([ENTITLEMENT]);
    const event = posted.find((m) => m[1]['evt'] === 'ENTITLEMENT_CREATE');
    expect(event).toBeDefined();
    // The event's schema (not exported by the SDK) is `{entitlement: Entitlement}`.
    const data = event?.[1]['data'] as { entitlement: unknown };
    expect(Common.Entitlement.parse(data.entitlement)).toEqual(ENTITLEMENT);
  });

  it('START_PURCHASE answers null when the person closes the dialog, and checks sku_id', async () => {
    const { send, posted } = await authenticated();
    await send('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE');
    const closed = await send('START_PURCHASE', { sku_id: '1' });
    expect(sdkParses(closed).data).toBeNull();
    expect(posted.some((m) => m[1]['evt'] === 'ENTITLEMENT_CREATE')).toBe(false);
    expect((await send('START_PURCHASE', {}))['data']).toMatchObject({ code: 4000 });
  });
});

describe('users, invites and sharing', () => {
  it('GET_USER answers a known user, null for another, and needs identify', async () => {
    const bare = harness();
    bare.handshake();
    expect((await bare.send('GET_USER', { id: ME }))['data']).toMatchObject({ code: 4006 });
    const { send } = await authenticated();
    const user = sdkParses(await send('GET_USER', { id: ME })).data;
    expect(user).toMatchObject({ id: ME, username: 'ada' });
    expect(sdkParses(await send('GET_USER', { id: '9' })).data).toBeNull();
    expect((await send('GET_USER', { id: 'x'.repeat(65) }))['data']).toMatchObject({ code: 4000 });
  });

  it('OPEN_INVITE_DIALOG in a guild; refused in a DM as the platform does (4005)', async () => {
    const invited: string[] = [];
    const { send } = await authenticated({
      inviteDialog: () => {
        invited.push('dialog');
        return Promise.resolve();
      },
    });
    expect(sdkParses(await send('OPEN_INVITE_DIALOG')).data).toBeNull();
    expect(invited).toEqual(['dialog']);
    const dm = await authenticated({}, { ...CONTEXT, guildId: null });
    expect((await dm.send('OPEN_INVITE_DIALOG'))['data']).toMatchObject({ code: 4005 });
  });

  it('INVITE_USER_EMBEDDED and SHARE_LINK', async () => {
    const sent: unknown[] = [];
    const { send } = await authenticated({
      inviteUser: (userId, content) => {
        sent.push({ userId, content });
        return Promise.resolve();
      },
    });
    const invite = await send('INVITE_USER_EMBEDDED', { user_id: '7', content: 'Join me' });
    expect(sdkParses(invite).data).toBeNull();
    expect(sent).toEqual([{ userId: '7', content: 'Join me' }]);
    const share = await send('SHARE_LINK', { message: 'Beat my score', custom_id: 'level-3' });
    expect(sdkParses(share).data).toEqual({
      success: true,
      didCopyLink: true,
      didSendMessage: false,
    });
    expect((await send('SHARE_LINK', { message: 'x'.repeat(1001) }))['data']).toMatchObject({
      code: 4000,
    });
  });
});

describe('images and moments', () => {
  it('INITIATE_IMAGE_UPLOAD answers the image link; a cancel is an error', async () => {
    const { send } = await authenticated();
    const uploaded = await send('INITIATE_IMAGE_UPLOAD');
    expect(sdkParses(uploaded).data).toEqual({ image_url: IMAGE_URL });
    const cancelled = await authenticated({ uploadImage: () => Promise.resolve(null) });
    const answer = await cancelled.send('INITIATE_IMAGE_UPLOAD');
    expect(answer).toMatchObject({ evt: 'ERROR', data: { code: 1000 } });
  });

  it('OPEN_SHARE_MOMENT_DIALOG shares an http(s) link of at most 1024 characters', async () => {
    const shared: string[] = [];
    const { send } = await authenticated({
      shareMoment: (mediaUrl) => {
        shared.push(mediaUrl);
        return Promise.resolve();
      },
    });
    const moment = await send('OPEN_SHARE_MOMENT_DIALOG', { mediaUrl: IMAGE_URL });
    expect(sdkParses(moment).data).toBeNull();
    expect(shared).toEqual([IMAGE_URL]);
    for (const mediaUrl of ['javascript:alert(1)', `${IMAGE_URL}&${'x'.repeat(1024)}`, 7]) {
      const refused = await send('OPEN_SHARE_MOMENT_DIALOG', { mediaUrl });
      expect(refused['data']).toMatchObject({ code: 4000 });
    }
    expect(shared).toHaveLength(1);
  });
});

describe('SHARE_INTERACTION', () => {
  it("runs the app's command with its options and answers whether the app answered", async () => {
    const asked: unknown[] = [];
    let answered = true;
    const { send } = await authenticated({
      shareInteraction: (request) => {
        asked.push(request);
        return Promise.resolve(answered);
      },
    });
    const args = {
      command: 'score post',
      options: [{ name: 'points', value: '42' }],
      content: 'Beat that',
      require_launch_channel: true,
    };
    expect(sdkParses(await send('SHARE_INTERACTION', args)).data).toEqual({ success: true });
    expect(asked).toEqual([{ command: 'score post', options: [{ name: 'points', value: '42' }] }]);
    answered = false;
    expect(sdkParses(await send('SHARE_INTERACTION', args)).data).toEqual({ success: false });
    for (const bad of [{}, { command: 'a', options: [{ name: 'x', value: 1 }] }]) {
      expect((await send('SHARE_INTERACTION', bad))['data']).toMatchObject({ code: 4000 });
    }
    expect(asked).toHaveLength(2);
  });
});

describe('config, hardware and quests', () => {
  it('SET_CONFIG and ENCOURAGE_HW_ACCELERATION', async () => {
    const { send } = await authenticated();
    const config = await send('SET_CONFIG', { use_interactive_pip: true });
    expect(sdkParses(config).data).toEqual({ use_interactive_pip: true });
    expect((await send('SET_CONFIG', {}))['data']).toMatchObject({ code: 4000 });
    expect(sdkParses(await send('ENCOURAGE_HW_ACCELERATION')).data).toEqual({ enabled: true });
  });

  it('answers the quest commands as for an app with no quests', async () => {
    const { send } = await authenticated();
    const status = await send('GET_QUEST_ENROLLMENT_STATUS', { quest_id: '42' });
    expect(sdkParses(status).data).toEqual({
      quest_id: '42',
      is_enrolled: false,
      enrolled_at: null,
    });
    expect(sdkParses(await send('QUEST_START_TIMER', { quest_id: '42' })).data).toEqual({
      success: false,
    });
    expect((await send('GET_QUEST'))['evt']).toBe('ERROR');
  });

  it('REQUEST_PROXY_TICKET_REFRESH answers a new ticket; a failure is 1000', async () => {
    const { send } = await authenticated();
    expect(sdkParses(await send('REQUEST_PROXY_TICKET_REFRESH')).data).toEqual({
      ticket: PROXY_TICKET,
    });
    const failing = await authenticated({ proxyTicket: () => Promise.reject(new Error('down')) });
    expect((await failing.send('REQUEST_PROXY_TICKET_REFRESH'))['data']).toEqual({
      code: 1000,
      message: 'Failed to create proxy ticket',
    });
  });
});

describe('events', () => {
  it('CURRENT_GUILD_MEMBER_UPDATE: the activity guild only, with guilds.members.read', async () => {
    const plain = await authenticated();
    const refused = await plain.send(
      'SUBSCRIBE',
      { guild_id: CONTEXT.guildId },
      'CURRENT_GUILD_MEMBER_UPDATE',
    );
    expect(refused['data']).toMatchObject({ code: 4006 });
    const { send, host, posted } = await authenticated({
      oauthMe: () => Promise.resolve({ ...ME_ANSWER, scopes: ['identify', 'guilds.members.read'] }),
    });
    const other = await send('SUBSCRIBE', { guild_id: '9' }, 'CURRENT_GUILD_MEMBER_UPDATE');
    expect(other['data']).toMatchObject({ code: 4003 });
    const ok = await send(
      'SUBSCRIBE',
      { guild_id: CONTEXT.guildId },
      'CURRENT_GUILD_MEMBER_UPDATE',
    );
    expect(sdkParses(ok).data).toEqual({ evt: 'CURRENT_GUILD_MEMBER_UPDATE' });
    const member = sdkGuildMember(CONTEXT.guildId, { user: { id: ME }, nick: 'Ada L.' });
    host.dispatch('CURRENT_GUILD_MEMBER_UPDATE', member);
    const event = posted.at(-1)?.[1];
    expect(event).toMatchObject({ cmd: 'DISPATCH', evt: 'CURRENT_GUILD_MEMBER_UPDATE' });
    expect(Common.GuildMemberRPC.parse(event?.['data'])).toEqual(member);
  });

  it('ACTIVITY_JOIN: an accepted invite reaches the frame when it subscribes', async () => {
    const join = { applicationId: CONTEXT.applicationId, secret: 's3cret' };
    const { send, posted } = await authenticated({
      currentEvent: (evt) => (evt === 'ACTIVITY_JOIN' ? join : null),
    });
    expect(sdkParses(await send('SUBSCRIBE', {}, 'ACTIVITY_JOIN')).data).toEqual({
      evt: 'ACTIVITY_JOIN',
    });
    const event = posted.at(-1)?.[1];
    expect(event).toMatchObject({ cmd: 'DISPATCH', evt: 'ACTIVITY_JOIN', data: join });
  });
});
