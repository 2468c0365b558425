import { describe, expect, it } from 'vitest';
import { CLIENT_OPS, ClientFrame, FrameEnvelope } from './clientOps.js';

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
    expect([...CLIENT_OPS].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 8, 31, 43]);
    expect(parse({ op: 7 }).success).toBe(false);
  });
});
