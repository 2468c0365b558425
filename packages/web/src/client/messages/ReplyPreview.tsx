import { MessageReferenceType, type APIGuild, type APIMessage } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { nameStyle } from '../members/roleColor.js';
import { displayName } from './names.js';

/** The first line of a message as a reply's preview shows it, or what it has instead of text. */
function snippet(message: APIMessage): string {
  const line = message.content.split('\n', 1)[0] ?? '';
  if (line !== '') return line;
  if (message.attachments.length > 0) return 'Click to see attachment';
  if (message.embeds.length > 0 || (message.components?.length ?? 0) > 0)
    return 'Click to see message';
  return '';
}

/** Moves focus to a message of the list when it is loaded, as clicking a reply's preview does. */
function jumpTo(from: HTMLElement, messageId: string): void {
  const target = from
    .closest('[role="log"]')
    ?.querySelector<HTMLElement>(`article[data-message-id="${messageId}"]`);
  if (target == null) return;
  target.scrollIntoView({ block: 'center' });
  target.focus();
}

/**
 * The line above a reply (and above a message command's response): who and what it answers, from
 * the message's `referenced_message`; "Original message was deleted" when the API sent null.
 */
export function ReplyPreview({
  message,
  guild,
}: {
  message: APIMessage;
  guild: APIGuild | undefined;
}): React.JSX.Element | null {
  const reference = message.message_reference;
  const referenced = message.referenced_message;
  const authorId = referenced?.author.id;
  const member = useClientState((s) =>
    guild === undefined || authorId === undefined ? undefined : s.members[guild.id]?.[authorId],
  );
  if (
    reference === undefined ||
    (reference.type ?? MessageReferenceType.Default) !== MessageReferenceType.Default ||
    referenced === undefined
  ) {
    return null;
  }
  if (referenced === null) {
    return (
      <div className="message-reply">
        <span className="reply-deleted">Original message was deleted</span>
      </div>
    );
  }
  const author = displayName(referenced.author, member);
  const text = snippet(referenced);
  return (
    <div className="message-reply">
      <button
        type="button"
        className="reply-jump"
        aria-label={`Replying to ${author}: ${text}`}
        onClick={(event) => {
          jumpTo(event.currentTarget, referenced.id);
        }}
      >
        <span className="reply-author" style={nameStyle(guild, member)}>
          @{author}
        </span>{' '}
        <span className="reply-content">{text}</span>
      </button>
    </div>
  );
}
