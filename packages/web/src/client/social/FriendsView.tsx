import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import { reloadRelationships } from './actions.js';
import { AddFriendPanel } from './AddFriendPanel.js';
import { PersonRow } from './PersonRow.js';
import { RelationshipType, displayName, type Relationship } from './relationships.js';
import '../../styles/social.css';

const TABS = [
  { key: 'online', label: 'Online' },
  { key: 'all', label: 'All' },
  { key: 'pending', label: 'Pending' },
  { key: 'blocked', label: 'Blocked' },
  { key: 'add', label: 'Add Friend' },
] as const;
type Tab = (typeof TABS)[number]['key'];

/** Statuses the Online tab leaves out (a friend never sees "invisible", but the store might). */
const OFFLINE = new Set(['offline', 'invisible']);

/** Rows sorted by the name the list shows them under. */
function byName(a: Relationship, b: Relationship): number {
  return displayName(a.user, a.nickname).localeCompare(displayName(b.user, b.nickname));
}

/**
 * The home page's main column at /channels/@me: the friends list in tabs (online friends, all
 * friends, pending requests either way, blocked users) and the form to add a friend by username.
 * Every change is a call of the public relationship routes (docs/social-friends.md); the store
 * follows the gateway's RELATIONSHIP_* events, and is reloaded after each change so the page is
 * right even when the gateway is reconnecting.
 */
export function FriendsView() {
  const { store } = useClient();
  const [tab, setTab] = useState<Tab>('online');
  const [loadError, setLoadError] = useState<string | null>(null);
  const relationships = useClientState((state) => state.relationships);
  const presences = useClientState((state) => state.presences);
  const baseId = useId();
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  useEffect(() => {
    reloadRelationships(store).then(
      () => {
        setLoadError(null);
      },
      (error: unknown) => {
        setLoadError(errorMessage(error));
      },
    );
  }, [store]);

  const all = Object.values(relationships).sort(byName);
  const friends = all.filter((r) => r.type === RelationshipType.Friend);
  const pending = all.filter(
    (r) =>
      r.type === RelationshipType.PendingIncoming || r.type === RelationshipType.PendingOutgoing,
  );
  const incoming = pending.filter((r) => r.type === RelationshipType.PendingIncoming).length;

  const lists: Record<
    Exclude<Tab, 'add'>,
    { title: string; rows: Relationship[]; empty: string }
  > = {
    online: {
      title: 'Online',
      rows: friends.filter((r) => !OFFLINE.has(presences[r.id]?.status ?? 'offline')),
      empty: 'None of your friends are online right now.',
    },
    all: {
      title: 'All friends',
      rows: friends,
      empty: 'You have no friends yet: add one by username.',
    },
    pending: { title: 'Pending', rows: pending, empty: 'There are no pending friend requests.' },
    blocked: {
      title: 'Blocked',
      rows: all.filter((r) => r.type === RelationshipType.Blocked),
      empty: 'You have not blocked anyone.',
    },
  };

  // Arrow keys move between tabs (and select them), as the ARIA tabs pattern has it.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.key === tab);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const key = TABS[next]?.key ?? 'online';
    setTab(key);
    tabRefs.current[key]?.focus();
  };

  const tabId = (key: Tab) => `${baseId}-tab-${key}`;
  const panelId = `${baseId}-panel`;

  return (
    <section className="social-friends" aria-labelledby={`${baseId}-title`}>
      <header className="social-friends-header">
        <h1 id={`${baseId}-title`}>Friends</h1>
        <div role="tablist" aria-label="Friends" className="social-tabs" onKeyDown={onTabKey}>
          {TABS.map(({ key, label }) => (
            <button
              key={key}
              ref={(node) => {
                tabRefs.current[key] = node;
              }}
              type="button"
              role="tab"
              id={tabId(key)}
              aria-selected={tab === key}
              aria-controls={panelId}
              tabIndex={tab === key ? 0 : -1}
              className={key === 'add' ? 'social-tab social-tab-add' : 'social-tab'}
              aria-describedby={
                key === 'pending' && incoming > 0 ? `${baseId}-incoming` : undefined
              }
              onClick={() => {
                setTab(key);
              }}
            >
              {label}
              {key === 'pending' && incoming > 0 ? (
                <span className="social-badge" aria-hidden="true">
                  {incoming}
                </span>
              ) : null}
            </button>
          ))}
        </div>
        {incoming > 0 ? (
          <span id={`${baseId}-incoming`} className="visually-hidden">
            {incoming === 1 ? '1 incoming request' : `${String(incoming)} incoming requests`}
          </span>
        ) : null}
      </header>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(tab)} className="social-panel">
        {loadError === null ? null : (
          <p className="form-error" role="alert">
            {loadError}
          </p>
        )}
        {tab === 'add' ? <AddFriendPanel /> : <PeopleList {...lists[tab]} />}
      </div>
    </section>
  );
}

function PeopleList({
  title,
  rows,
  empty,
}: {
  title: string;
  rows: Relationship[];
  empty: string;
}) {
  const [, navigate] = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const focused = useRef(false);
  const ids = rows.map((r) => r.id).join();
  // A row that had focus left the list (accepted, ignored, removed…): the browser drops focus to
  // the body; keyboard users continue from the list's heading instead.
  useEffect(() => {
    if (!focused.current) return;
    const active = document.activeElement;
    if (active === null || active === document.body) heading.current?.focus();
    focused.current = list.current?.contains(document.activeElement) ?? false;
  }, [ids]);
  return (
    <>
      <h2 className="social-list-title" ref={heading} tabIndex={-1}>
        {title} — {rows.length}
      </h2>
      {rows.length === 0 ? (
        <p className="social-empty">{empty}</p>
      ) : (
        <ul
          className="social-people"
          ref={list}
          onFocus={() => {
            focused.current = true;
          }}
          onBlur={(event) => {
            // No related target: the focused row went away (or the window lost focus), which
            // the effect above handles.
            if (event.relatedTarget !== null) {
              focused.current = list.current?.contains(event.relatedTarget) ?? false;
            }
          }}
        >
          {rows.map((relationship) => (
            <PersonRow
              key={relationship.id}
              relationship={relationship}
              onOpenDm={(channelId) => {
                navigate(`/channels/@me/${channelId}`);
              }}
            />
          ))}
        </ul>
      )}
    </>
  );
}
