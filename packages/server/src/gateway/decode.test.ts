import { describe, expect, it } from 'vitest';
import { decodeBody, messageOf } from './decode.js';

describe('decodeBody', () => {
  it('types a registered name with an object payload, so its data narrows by type', () => {
    const received = decodeBody('GUILD_ROLE_DELETE', { guild_id: '1', role_id: '2' });
    expect(received.known).toBe(true);
    const roleId =
      received.known && received.body.type === 'GUILD_ROLE_DELETE'
        ? received.body.data.role_id
        : null;
    expect(roleId).toBe('2');
  });

  it("passes a name no resource registers (a newer node's) as an untyped remainder", () => {
    expect(decodeBody('SOMETHING_NEW', { id: '1' })).toEqual({
      known: false,
      type: 'SOMETHING_NEW',
      data: { id: '1' },
    });
  });

  it('passes a registered name whose payload is no object as an untyped remainder', () => {
    for (const data of [null, 'text', 3, ['a']]) {
      expect(decodeBody('MESSAGE_CREATE', data)).toEqual({
        known: false,
        type: 'MESSAGE_CREATE',
        data,
      });
    }
  });

  it('does not take an inherited property for a name', () => {
    expect(decodeBody('toString', {}).known).toBe(false);
  });

  it('reads the message of MESSAGE_CREATE and MESSAGE_UPDATE only', () => {
    const message = { id: '5', content: 'hi', author: { id: '7' }, mentions: [] };
    expect(messageOf(decodeBody('MESSAGE_UPDATE', message))).toEqual(message);
    expect(messageOf(decodeBody('MESSAGE_DELETE', message))).toBeNull();
    expect(messageOf(decodeBody('SOMETHING_NEW', message))).toBeNull();
  });
});
