import { ApplicationFlags } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import {
  applicationHasMessageContent,
  canReadMessageContent,
  withoutMessageContent,
  type ContentReader,
  type ContentSubject,
} from './messageContent.js';

const app: ContentReader = { userId: 'bot', isApp: true, hasMessageContent: false };
const other: ContentSubject = { authorId: 'u1', inDirectChannel: false, mentionedUserIds: [] };

describe('canReadMessageContent', () => {
  it.each([
    ['a person', { ...app, isApp: false }, other, true],
    ['an app with the intent', { ...app, hasMessageContent: true }, other, true],
    ['an app without it, on another user’s message', app, other, false],
    ['an app without it, on its own message', app, { ...other, authorId: 'bot' }, true],
    ['an app without it, in a DM with it', app, { ...other, inDirectChannel: true }, true],
    ['an app without it, when mentioned', app, { ...other, mentionedUserIds: ['bot'] }, true],
    [
      'an app without it, when someone else is mentioned',
      app,
      { ...other, mentionedUserIds: ['x'] },
      false,
    ],
  ] as const)('%s', (...[, reader, message, expected]) => {
    expect(canReadMessageContent(reader, message)).toBe(expected);
  });
});

describe('applicationHasMessageContent', () => {
  it('accepts either flag and refuses neither', () => {
    expect(applicationHasMessageContent(ApplicationFlags.GATEWAY_MESSAGE_CONTENT)).toBe(true);
    expect(applicationHasMessageContent(ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED)).toBe(
      true,
    );
    expect(applicationHasMessageContent(ApplicationFlags.GATEWAY_PRESENCE)).toBe(false);
  });
});

describe('withoutMessageContent', () => {
  it('empties content, embeds, attachments and components and keeps the rest', () => {
    const message = {
      id: '1',
      content: 'hi',
      embeds: [{}],
      attachments: [{}],
      components: [{}],
      pinned: false,
    };
    expect(withoutMessageContent(message)).toEqual({
      id: '1',
      content: '',
      embeds: [],
      attachments: [],
      components: [],
      pinned: false,
    });
    expect(message.content).toBe('hi');
  });
});
