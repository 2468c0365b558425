/** The picker's emoji: common unicode ones with the names screen readers announce. */
export const COMMON_EMOJI: readonly { emoji: string; name: string }[] = [
  { emoji: '👍', name: 'thumbs up' },
  { emoji: '👎', name: 'thumbs down' },
  { emoji: '❤️', name: 'red heart' },
  { emoji: '😂', name: 'face with tears of joy' },
  { emoji: '😄', name: 'grinning face with smiling eyes' },
  { emoji: '😊', name: 'smiling face with smiling eyes' },
  { emoji: '😍', name: 'smiling face with heart-eyes' },
  { emoji: '😮', name: 'face with open mouth' },
  { emoji: '😢', name: 'crying face' },
  { emoji: '😡', name: 'pouting face' },
  { emoji: '🤔', name: 'thinking face' },
  { emoji: '😎', name: 'smiling face with sunglasses' },
  { emoji: '🙏', name: 'folded hands' },
  { emoji: '👏', name: 'clapping hands' },
  { emoji: '🙌', name: 'raising hands' },
  { emoji: '👀', name: 'eyes' },
  { emoji: '🎉', name: 'party popper' },
  { emoji: '🔥', name: 'fire' },
  { emoji: '✨', name: 'sparkles' },
  { emoji: '💯', name: 'hundred points' },
  { emoji: '✅', name: 'check mark button' },
  { emoji: '❌', name: 'cross mark' },
  { emoji: '⭐', name: 'star' },
  { emoji: '🚀', name: 'rocket' },
  { emoji: '💡', name: 'light bulb' },
  { emoji: '🐛', name: 'bug' },
  { emoji: '🍕', name: 'pizza' },
  { emoji: '☕', name: 'hot beverage' },
  { emoji: '👋', name: 'waving hand' },
  { emoji: '🤝', name: 'handshake' },
  { emoji: '💬', name: 'speech balloon' },
  { emoji: '⚠️', name: 'warning' },
];

/** A reaction's emoji in a reactions URL: the unicode itself, or `name:id` for a custom one. */
export function emojiPath(emoji: { id: string | null; name: string | null }): string {
  return encodeURIComponent(
    emoji.id === null ? (emoji.name ?? '') : `${emoji.name ?? '_'}:${emoji.id}`,
  );
}

/** The spoken name of a reaction's emoji (the picker's name, else the emoji's own). */
export function emojiLabel(emoji: { id: string | null; name: string | null }): string {
  if (emoji.id !== null) return `:${emoji.name ?? 'emoji'}:`;
  return COMMON_EMOJI.find((e) => e.emoji === emoji.name)?.name ?? emoji.name ?? 'emoji';
}
