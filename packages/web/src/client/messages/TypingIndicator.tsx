import { useClientState } from '../context.js';
import { displayName } from './names.js';

const NOBODY: Record<string, number> = {};

/** "Ada is typing…" under the composer; the current user is not listed. */
export function TypingIndicator({
  channelId,
  guildId,
}: {
  channelId: string;
  guildId: string | null;
}) {
  const typing = useClientState((s) => s.typing[channelId] ?? NOBODY);
  const users = useClientState((s) => s.users);
  const members = useClientState((s) => (guildId === null ? undefined : s.members[guildId]));
  const meId = useClientState((s) => s.me?.id ?? null);
  const names = Object.keys(typing)
    .filter((id) => id !== meId)
    .map((id) => displayName(users[id], members?.[id]));
  return (
    <div className="typing-indicator" aria-live="polite">
      {typingText(names)}
    </div>
  );
}

export function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0] ?? ''} is typing…`;
  if (names.length === 2) return `${names[0] ?? ''} and ${names[1] ?? ''} are typing…`;
  if (names.length === 3)
    return `${names[0] ?? ''}, ${names[1] ?? ''} and ${names[2] ?? ''} are typing…`;
  return 'Several people are typing…';
}
