import { describe, expect, it } from 'vitest';
import { AdditionalContentType, additionalContentOf } from './messageContent.js';
import type { WireMessage } from './wire.js';

const base: WireMessage = {
  id: '1',
  channel_id: '2',
  content: '',
  author: { id: '3', username: 'ada', global_name: null, avatar: null },
};
const seen = (extra: object) => {
  const content = additionalContentOf({ ...base, ...extra });
  return content === null ? null : [content.type(), content.title(), content.count()];
};

describe('additionalContentOf', () => {
  it('names the first kind of non-text content a message carries', () => {
    expect(seen({})).toBeNull();
    expect(seen({ attachments: [], embeds: [], sticker_items: [] })).toBeNull();
    const two = [{ filename: 'a.png' }, { filename: 'b.png' }];
    expect(seen({ attachments: two })).toEqual([AdditionalContentType.Attachment, null, 2]);
    expect(seen({ attachments: [{}], flags: 1 << 13 })).toEqual([
      AdditionalContentType.VoiceMessage,
      null,
      1,
    ]);
    expect(seen({ poll: { question: { text: 'Map?' } }, attachments: two })).toEqual([
      AdditionalContentType.Poll,
      'Map?',
      1,
    ]);
    expect(seen({ sticker_items: [{ name: 'wave' }] })).toEqual([
      AdditionalContentType.Sticker,
      'wave',
      1,
    ]);
    expect(seen({ embeds: [{ title: 'Patch notes' }, {}] })).toEqual([
      AdditionalContentType.Embed,
      'Patch notes',
      2,
    ]);
    expect(seen({ thread: { name: 'strats' } })).toEqual([
      AdditionalContentType.Thread,
      'strats',
      1,
    ]);
    const many = Array.from({ length: 300 }, () => ({}));
    expect(seen({ embeds: many })).toEqual([AdditionalContentType.Embed, null, 255]);
  });
});
