import { describe, expect, it } from 'vitest';
import { Activity, CLIENT_OPS, ClientFrame, dropEmpty, FrameEnvelope } from './clientOps.js';
import { activityWire } from './routing.js';

const GUILD = '123456789012345678';
const parse = (frame: unknown) => ClientFrame.safeParse(frame);

describe('client frames', () => {
  it('a frame is an object with an integer op', () => {
    expect(FrameEnvelope.safeParse({ op: 1 }).success).toBe(true);
    expect(FrameEnvelope.safeParse({ op: 1.5 }).success).toBe(false);
    expect(FrameEnvelope.safeParse([1]).success).toBe(false);
    expect(FrameEnvelope.safeParse({ d: {} }).success).toBe(false);
  });

  it('fields of the wrong type take their default; IDENTIFY and RESUME need an object', () => {
    expect(parse({ op: 2, d: { large_threshold: 1000, capabilities: 'x', compress: 1 } })).toEqual({
      success: true,
      data: {
        op: 2,
        d: { token: '', compress: false, large_threshold: 250, capabilities: 0 },
      },
    });
    expect(parse({ op: 2, d: { token: 't', large_threshold: 3 } }).data?.d).toMatchObject({
      token: 't',
      large_threshold: 50,
    });
    expect(parse({ op: 6, d: { seq: 'x' } }).data?.d).toEqual({
      token: '',
      session_id: '',
      seq: -1,
    });
    expect(parse({ op: 2, d: [] }).success).toBe(false);
    expect(parse({ op: 6, d: null }).success).toBe(false);
  });

  it('commands refuse what the platform refuses and default the rest', () => {
    expect(parse({ op: 3, d: { status: 'online', activities: 'x' } }).data?.d).toEqual({
      status: 'online',
      activities: [],
      since: null,
      afk: false,
    });
    expect(parse({ op: 3, d: { status: 'online', activities: [1] } }).success).toBe(false);
    expect(parse({ op: 3, d: { status: 'away' } }).success).toBe(false);
    expect(parse({ op: 4, d: { guild_id: GUILD } }).success).toBe(false);
    expect(parse({ op: 4, d: { guild_id: GUILD, channel_id: null } }).success).toBe(true);
    expect(parse({ op: 8, d: { guild_id: GUILD } }).success).toBe(false);
    expect(parse({ op: 8, d: { guild_id: GUILD, user_ids: ['x'] } }).success).toBe(false);
    expect(
      parse({ op: 8, d: { guild_id: GUILD, query: '', limit: 2.5, nonce: 'n'.repeat(40) } }).data
        ?.d,
    ).toMatchObject({ limit: 2, nonce: 'n'.repeat(32), user_ids: null });
    expect(parse({ op: 8, d: { guild_id: GUILD, user_ids: GUILD } }).data?.d).toMatchObject({
      user_ids: [GUILD],
    });
    expect(parse({ op: 31, d: 'x' }).data).toEqual({ op: 31, d: { guild_ids: [] } });
    expect(parse({ op: 43, d: { guild_id: GUILD, fields: ['topic'] } }).success).toBe(false);
  });

  it('server-only ops are not client ops', () => {
    // 1001 is Guildhall's own (docs/gateway.md#guildhalls-own).
    expect([...CLIENT_OPS].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 8, 31, 43, 1001]);
    expect(parse({ op: 7 }).success).toBe(false);
  });
});

describe('activities', () => {
  it('drops null and empty members, deep, and keeps zeros and false', () => {
    expect(
      dropEmpty({
        name: 'g',
        type: 0,
        state: '',
        emoji: null,
        assets: { large_image: null, small_text: '' },
        party: { id: 'p', size: [0, 4] },
        buttons: [],
        instance: false,
      }),
    ).toEqual({ name: 'g', type: 0, party: { id: 'p', size: [0, 4] }, instance: false });
  });

  it('names a custom status; needs a name otherwise; drops unknown members', () => {
    expect(Activity.parse({ type: 4, state: 'hi' })).toEqual({
      type: 4,
      state: 'hi',
      name: 'Custom Status',
    });
    expect(Activity.safeParse({ type: 0 }).success).toBe(false);
    expect(Activity.parse({ name: 'g', type: 5, extra: 1 })).toEqual({ name: 'g', type: 5 });
    expect(Activity.safeParse({ name: 'g', type: 1.5 }).success).toBe(false);
    expect(Activity.safeParse({ name: 'g', type: 0, party: { size: [0, 0] } }).success).toBe(false);
    expect(Activity.safeParse({ name: 'g', type: 0, large_url: 'x' }).success).toBe(true);
    expect(
      Activity.safeParse({ name: 'g', type: 0, assets: { large_url: 'ftp://x.y' } }).success,
    ).toBe(false);
  });

  it('others see no secrets, and buttons as labels with their URLs in metadata', () => {
    expect(
      activityWire({
        name: 'g',
        type: 0,
        secrets: { join: 's' },
        buttons: [{ label: 'Go', url: 'https://x.y' }],
      }),
    ).toEqual({ name: 'g', type: 0, buttons: ['Go'], metadata: { button_urls: ['https://x.y'] } });
    const plain = { name: 'g', type: 0 };
    expect(activityWire(plain)).toBe(plain);
  });
});
