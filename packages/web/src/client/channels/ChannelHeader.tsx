import { useRef, useState } from 'react';
import { ChannelType, type APIChannel } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { InviteDialog } from '../invites/InviteDialog.js';
import { PinsPanel } from '../messages/PinsPanel.js';
import { channelTitle } from '../messages/names.js';
import { ActivityLauncher, RunningActivities } from '../activities/ActivityLauncher.js';

/** Whether a guild's member list is shown beside the conversation, and the switch. */
export interface MemberListToggle {
  shown: boolean;
  toggle: () => void;
}

/**
 * The conversation's name and topic, its pinned messages, and in a guild "Create Invite" and the
 * member list's switch.
 */
export function ChannelHeader({
  channel,
  members,
}: {
  channel: APIChannel;
  members?: MemberListToggle | undefined;
}) {
  const meId = useClientState((s) => s.me?.id ?? null);
  const [inviting, setInviting] = useState(false);
  const [pinsOpen, setPinsOpen] = useState(false);
  const pinsButton = useRef<HTMLButtonElement>(null);
  const isPrivate = channel.type === ChannelType.DM || channel.type === ChannelType.GroupDM;
  const topic = 'topic' in channel ? channel.topic : null;
  return (
    <header className="channel-header">
      <h1>
        <span aria-hidden="true" className="channel-icon">
          {isPrivate ? '@' : '#'}
        </span>
        {channelTitle(channel, meId)}
      </h1>
      {topic === null || topic === undefined || topic === '' ? null : (
        <p className="channel-topic">{topic}</p>
      )}
      <div className="channel-header-actions">
        <button
          ref={pinsButton}
          type="button"
          aria-expanded={pinsOpen}
          onClick={() => {
            setPinsOpen((o) => !o);
          }}
        >
          Pinned Messages
        </button>
        {members === undefined ? null : (
          <button type="button" aria-pressed={members.shown} onClick={members.toggle}>
            Member List
          </button>
        )}
        {isPrivate ? (
          <ActivityLauncher channelId={channel.id} label="Activities in this conversation" />
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setInviting(true);
            }}
          >
            Create Invite
          </button>
        )}
      </div>
      {isPrivate ? <RunningActivities channelId={channel.id} /> : null}
      {pinsOpen ? (
        <PinsPanel
          channel={channel}
          onClose={() => {
            setPinsOpen(false);
            pinsButton.current?.focus();
          }}
        />
      ) : null}
      {inviting ? (
        <InviteDialog
          channel={channel}
          onClose={() => {
            setInviting(false);
          }}
        />
      ) : null}
    </header>
  );
}
