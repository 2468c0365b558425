import type { APIUser } from 'discord-api-types/v10';
import { useClientState } from '../context.js';

const STATUS_LABELS: Record<string, string> = {
  online: 'Online',
  idle: 'Idle',
  dnd: 'Do Not Disturb',
  offline: 'Offline',
};

/** A user's status as the store has it; invisible shows as offline, as to everyone else. */
export function useStatus(userId: string): string {
  const status = useClientState((state) => state.presences[userId]?.status ?? 'offline');
  return status in STATUS_LABELS ? status : 'offline';
}

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? 'Offline';
}

/**
 * A user's avatar (the CDN path, or their initial when they have none), with a presence dot when
 * `presence` is set. The dot's status is in its accessible name; the image itself is decorative
 * because the name is always written next to it.
 */
export function UserAvatar({
  user,
  presence = false,
  statusId,
}: {
  user: APIUser;
  presence?: boolean;
  /** An id for the dot, for a link described by the status (aria-describedby). */
  statusId?: string;
}) {
  return (
    <span className="social-avatar" aria-hidden={presence ? undefined : true}>
      {user.avatar === null ? (
        <span className="social-avatar-initial" aria-hidden="true">
          {(user.global_name ?? user.username).slice(0, 1).toUpperCase()}
        </span>
      ) : (
        <img src={`/avatars/${user.id}/${user.avatar}.png?size=64`} alt="" width={32} height={32} />
      )}
      {presence ? <PresenceDot userId={user.id} id={statusId} /> : null}
    </span>
  );
}

function PresenceDot({ userId, id }: { userId: string; id: string | undefined }) {
  const status = useStatus(userId);
  return (
    <span
      id={id}
      className={`social-presence social-presence-${status}`}
      role="img"
      aria-label={statusLabel(status)}
      title={statusLabel(status)}
    />
  );
}
