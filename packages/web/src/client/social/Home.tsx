import { Link } from 'wouter';
import { RelationshipType } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { channelTitle } from '../messages/names.js';

/**
 * The home column at /channels/@me (H5 owns this file and replaces this first version): the
 * Friends link and the DM list.
 */
export function HomeSidebar() {
  const ids = useClientState((s) => s.privateChannelIds);
  const channels = useClientState((s) => s.channels);
  const meId = useClientState((s) => s.me?.id ?? null);
  return (
    <nav className="channel-sidebar" aria-label="Direct Messages">
      <Link href="/channels/@me" className="sidebar-link">
        Friends
      </Link>
      <h2 className="sidebar-heading">Direct Messages</h2>
      <ul className="channel-list">
        {ids.map((id) => {
          const channel = channels[id];
          if (channel === undefined) return null;
          return (
            <li key={id}>
              <Link href={`/channels/@me/${id}`} className="channel-link">
                {channelTitle(channel, meId)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The friends list at /channels/@me (H5). */
export function FriendsView() {
  const relationships = useClientState((s) => s.relationships);
  const friends = Object.values(relationships).filter(
    (r) => r.type === (RelationshipType.Friend as number),
  );
  return (
    <section className="friends-view" aria-labelledby="friends-title">
      <h1 id="friends-title">Friends</h1>
      {friends.length === 0 ? (
        <p>No friends yet.</p>
      ) : (
        <ul>
          {friends.map((r) => (
            <li key={r.id}>{r.nickname ?? r.user.global_name ?? r.user.username}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
