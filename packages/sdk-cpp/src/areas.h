// The feature areas' dispatch handlers and the state helpers they share. Handlers run on the game
// thread inside RunCallbacks, with Core::mutex held; they queue the game's callbacks in `events`.
#pragma once

#include <cstdint>

#include "core.h"

namespace platformpp::detail {

/// READY, USER_UPDATE, RELATIONSHIP_*, PRESENCE_UPDATE: users, relationships, presences.
void installSocialSync(Core& core);
/// AUTHORIZE_REQUEST (the Connected Game flow).
void installAuthHandlers(Core& core);
/// READY (the player's own presence), invites in DMs, ACTIVITY_JOIN, ACTIVITY_JOIN_REQUEST.
void installPresence(Core& core);
/// DM channels and messages, lobby messages.
void installMessages(Core& core);
/// LOBBY_* and LOBBY_MEMBER_*.
void installLobbies(Core& core);

/// Fires the groups-updated callback once when the friends list's groups changed.
void recomputeGroups(Core& core, uint64_t userId, Events& events);
/// Invites whose inviter's presence no longer shows the party become invalid (and back).
void revalidateInvites(Core& core, uint64_t userId, Events& events);
/// The friends of one group, sorted (the shared rule, rules.h).
std::vector<uint64_t> sortedGroup(Core const& core, RelationshipGroupType group);

/// After the player's own message is sent (game thread, no lock held): injects the disclosure
/// into its conversation the first time one will show in the platform's web client.
void discloseOnce(Core& core, Json const& sent, uint64_t recipientId);
void keepMessage(Core& core, Json const& message);
void keepChannel(Core& core, Json const& channel);
void keepLobby(Core& core, Json const& lobby);
void dropLobby(Core& core, uint64_t lobbyId, Events& events);

}  // namespace platformpp::detail
