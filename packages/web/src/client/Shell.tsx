import { useEffect, useMemo, useState } from 'react';
import { Redirect, useLocation, useRoute } from 'wouter';
import type { APIChannel } from 'discord-api-types/v10';
import { useClientState } from './context.js';
import { GuildRail } from './guilds/GuildRail.js';
import { ChannelSidebar } from './channels/ChannelSidebar.js';
import { ChannelHeader } from './channels/ChannelHeader.js';
import { firstTextChannel, isText } from './channels/order.js';
import { MemberList } from './members/MemberList.js';
import { MessagePane } from './messages/MessagePane.js';
import { UserPanel } from './UserPanel.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { FriendsView, HomeSidebar } from './social/Home.js';
import { ModalHost } from './apps/ModalHost.js';
import { channelTitle } from './messages/names.js';
import { ActivityDock } from './activities/ActivityFrame.js';
import { useDocumentTitle } from '../components/PageTitle.js';
import { useMediaQuery } from './ui/useMediaQuery.js';
import type { MemberListToggle } from './channels/ChannelHeader.js';

/**
 * Below this width the member list starts hidden (the header's Member List button shows it), so
 * the conversation and its composer keep a usable width. Matches `.guild-main` in chat.css.
 */
const NARROW = '(max-width: 1000px)';

const EMPTY: string[] = [];

/** The client's layout: server rail, channel column with the user panel, main column, members. */
export function Shell() {
  // `/channels/@me/<dm>/<message>` opens the DM at that message (the SDK's OpenMessageInDiscord).
  const [home, homeParams] = useRoute('/channels/@me/:channelId?/:messageId?');
  const [inGuild, guildParams] = useRoute('/channels/:guildId/:channelId?');
  const guildId = home ? null : inGuild ? guildParams.guildId : null;
  const channelId = home ? (homeParams.channelId ?? null) : (guildParams?.channelId ?? null);
  const messageId = home ? (homeParams.messageId ?? null) : null;
  if (!home && !inGuild) return <Redirect to="/channels/@me" replace />;
  return (
    <>
      <ShellTitle guildId={guildId} channelId={channelId} />
      <ShellLayout guildId={guildId} channelId={channelId} messageId={messageId} />
    </>
  );
}

/**
 * The tab's title for where the person is: "#general · Guild · Guildhall", "@ada · Guildhall"
 * in a DM, "Friends · Guildhall" at home.
 */
function ShellTitle({ guildId, channelId }: { guildId: string | null; channelId: string | null }) {
  const guildName = useClientState((s) => (guildId === null ? null : s.guilds[guildId]?.name));
  const channel = useClientState((s) => (channelId === null ? undefined : s.channels[channelId]));
  const meId = useClientState((s) => s.me?.id ?? null);
  const place =
    channel === undefined
      ? guildId === null && channelId === null
        ? 'Friends'
        : null
      : `${guildId === null ? '@' : '#'}${channelTitle(channel, meId)}`;
  useDocumentTitle(place, guildName);
  return null;
}

function ShellLayout({
  guildId,
  channelId,
  messageId,
}: {
  guildId: string | null;
  channelId: string | null;
  messageId: string | null;
}) {
  return (
    <div className="client-shell">
      <GuildRail />
      <div className="sidebar-column">
        {guildId === null ? (
          <HomeSidebar />
        ) : (
          <GuildSidebar guildId={guildId} channelId={channelId} />
        )}
        <UserPanel />
      </div>
      <main className="main-column">
        <ConnectionBanner />
        <ActivityDock />
        {guildId === null ? (
          channelId === null ? (
            <FriendsView />
          ) : (
            <ChannelView channelId={channelId} messageId={messageId} />
          )
        ) : (
          <GuildMain guildId={guildId} channelId={channelId} />
        )}
      </main>
      <ModalHost />
    </div>
  );
}

function GuildSidebar({ guildId, channelId }: { guildId: string; channelId: string | null }) {
  const guild = useClientState((s) => s.guilds[guildId]);
  if (guild === undefined) return <div className="channel-sidebar" />;
  return <ChannelSidebar guild={guild} channelId={channelId} />;
}

/** A guild's main column: the open text channel and the member list (the first text channel when none). */
function GuildMain({ guildId, channelId }: { guildId: string; channelId: string | null }) {
  const [, navigate] = useLocation();
  const ready = useClientState((s) => s.ready);
  const guild = useClientState((s) => s.guilds[guildId]);
  const ids = useClientState((s) => s.guildChannelIds[guildId] ?? EMPTY);
  const channels = useClientState((s) => s.channels);
  const first = useMemo(
    () =>
      firstTextChannel(
        ids.map((id) => channels[id]).filter((c): c is APIChannel => c !== undefined),
      ),
    [ids, channels],
  );
  const channel = channelId === null ? undefined : channels[channelId];
  const narrow = useMediaQuery(NARROW);
  // The person's choice, once made, holds at any width; until then the width decides.
  const [membersChosen, setMembersChosen] = useState<boolean | null>(null);
  const membersShown = membersChosen ?? !narrow;
  const memberToggle: MemberListToggle = {
    shown: membersShown,
    toggle: () => {
      setMembersChosen(!membersShown);
    },
  };
  useEffect(() => {
    if (
      (channelId === null || (guild !== undefined && channel === undefined)) &&
      first !== undefined
    ) {
      navigate(`/channels/${guildId}/${first.id}`, { replace: true });
    }
  }, [channelId, channel, guild, first, guildId, navigate]);
  if (guild === undefined) {
    return <p className="placeholder">{ready ? 'This server is not in your list.' : 'Loading…'}</p>;
  }
  return (
    <div className={membersShown ? 'guild-main' : 'guild-main no-members'}>
      <div className="channel-column">
        {channel !== undefined && isText(channel) ? (
          <ChannelView channelId={channel.id} members={memberToggle} />
        ) : (
          <p className="placeholder">No text channel to show.</p>
        )}
      </div>
      {membersShown ? <MemberList guild={guild} channel={channel} /> : null}
    </div>
  );
}

/** One conversation: header and messages (guild text channel or DM). */
function ChannelView({
  channelId,
  members,
  messageId = null,
}: {
  channelId: string;
  members?: MemberListToggle;
  /** A message to open the conversation at (scrolled to and focused once loaded). */
  messageId?: string | null;
}) {
  const channel = useClientState((s) => s.channels[channelId]);
  const ready = useClientState((s) => s.ready);
  const meId = useClientState((s) => s.me?.id ?? null);
  if (channel === undefined) {
    return <p className="placeholder">{ready ? 'This channel is not available.' : 'Loading…'}</p>;
  }
  return (
    <section className="channel-view" aria-label={channelTitle(channel, meId)}>
      <ChannelHeader channel={channel} members={members} />
      <MessagePane key={channelId} channelId={channelId} focusId={messageId} />
    </section>
  );
}
