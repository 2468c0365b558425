// Rich presence: Activity and its parts, and ActivityInvite. Value types (copyable, movable,
// `operator bool`, `nullobj`, a getter and a Set<Field> per field). Client::UpdateRichPresence
// checks the platform's limits (docs/sdk-cpp.md) and answers a ValidationError when one breaks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/values.h"

namespace platformpp {

/// The images of a rich presence (asset keys or URLs) and their hover texts.
class ActivityAssets {
 public:
  ActivityAssets() = default;
  explicit ActivityAssets(NullTag) : valid_(false) {}
  static const ActivityAssets nullobj;
  explicit operator bool() const { return valid_; }

  std::optional<std::string> const& LargeImage() const { return largeImage_; }
  void SetLargeImage(std::optional<std::string> value) { largeImage_ = std::move(value); }
  std::optional<std::string> const& LargeText() const { return largeText_; }
  void SetLargeText(std::optional<std::string> value) { largeText_ = std::move(value); }
  /// Where clicking the large image leads: an http(s) URL of at most 256 characters.
  std::optional<std::string> const& LargeUrl() const { return largeUrl_; }
  void SetLargeUrl(std::optional<std::string> value) { largeUrl_ = std::move(value); }
  std::optional<std::string> const& SmallImage() const { return smallImage_; }
  void SetSmallImage(std::optional<std::string> value) { smallImage_ = std::move(value); }
  std::optional<std::string> const& SmallText() const { return smallText_; }
  void SetSmallText(std::optional<std::string> value) { smallText_ = std::move(value); }
  std::optional<std::string> const& SmallUrl() const { return smallUrl_; }
  void SetSmallUrl(std::optional<std::string> value) { smallUrl_ = std::move(value); }
  /// The banner an invite to the party shows (a URL or an asset key).
  std::optional<std::string> const& InviteCoverImage() const { return inviteCoverImage_; }
  void SetInviteCoverImage(std::optional<std::string> value) {
    inviteCoverImage_ = std::move(value);
  }

 private:
  bool valid_ = true;
  std::optional<std::string> largeImage_, largeText_, largeUrl_;
  std::optional<std::string> smallImage_, smallText_, smallUrl_;
  std::optional<std::string> inviteCoverImage_;
};

/// When the activity started and ends, in Unix milliseconds (0: unset).
class ActivityTimestamps {
 public:
  ActivityTimestamps() = default;
  explicit ActivityTimestamps(NullTag) : valid_(false) {}
  static const ActivityTimestamps nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t Start() const { return start_; }
  void SetStart(uint64_t value) { start_ = value; }
  uint64_t End() const { return end_; }
  void SetEnd(uint64_t value) { end_ = value; }

 private:
  bool valid_ = true;
  uint64_t start_ = 0;
  uint64_t end_ = 0;
};

/// The player's party: its id, its size and who may ask to join.
class ActivityParty {
 public:
  ActivityParty() = default;
  explicit ActivityParty(NullTag) : valid_(false) {}
  static const ActivityParty nullobj;
  explicit operator bool() const { return valid_; }

  /// The game's id of the party, 1–128 characters (invites name it).
  std::string const& Id() const { return id_; }
  void SetId(std::string value) { id_ = std::move(value); }
  int32_t CurrentSize() const { return currentSize_; }
  void SetCurrentSize(int32_t value) { currentSize_ = value; }
  /// The party's capacity; 0 leaves the size out. At least CurrentSize when set.
  int32_t MaxSize() const { return maxSize_; }
  void SetMaxSize(int32_t value) { maxSize_ = value; }
  ActivityPartyPrivacy Privacy() const { return privacy_; }
  void SetPrivacy(ActivityPartyPrivacy value) { privacy_ = value; }

 private:
  bool valid_ = true;
  std::string id_;
  int32_t currentSize_ = 0;
  int32_t maxSize_ = 0;
  ActivityPartyPrivacy privacy_ = ActivityPartyPrivacy::Private;
};

/// The join secret invitees get (nobody sees it in the presence).
class ActivitySecrets {
 public:
  ActivitySecrets() = default;
  explicit ActivitySecrets(NullTag) : valid_(false) {}
  static const ActivitySecrets nullobj;
  explicit operator bool() const { return valid_; }

  std::string const& Join() const { return join_; }
  void SetJoin(std::string value) { join_ = std::move(value); }

 private:
  bool valid_ = true;
  std::string join_;
};

/// A link button on the rich presence (at most 2; label 1–32, URL 1–512 characters).
class ActivityButton {
 public:
  ActivityButton() = default;
  explicit ActivityButton(NullTag) : valid_(false) {}
  static const ActivityButton nullobj;
  explicit operator bool() const { return valid_; }

  std::string const& Label() const { return label_; }
  void SetLabel(std::string value) { label_ = std::move(value); }
  std::string const& Url() const { return url_; }
  void SetUrl(std::string value) { url_ = std::move(value); }

 private:
  bool valid_ = true;
  std::string label_;
  std::string url_;
};

/// A rich presence: what the game shows. Pass it to Client::UpdateRichPresence.
class Activity {
 public:
  Activity() = default;
  explicit Activity(NullTag) : valid_(false) {}
  static const Activity nullobj;
  explicit operator bool() const { return valid_; }

  /// The name shown; empty: the application's name.
  std::string const& Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }
  ActivityTypes Type() const { return type_; }
  void SetType(ActivityTypes value) { type_ = value; }
  std::optional<std::string> const& State() const { return state_; }
  void SetState(std::optional<std::string> value) { state_ = std::move(value); }
  std::optional<std::string> const& StateUrl() const { return stateUrl_; }
  void SetStateUrl(std::optional<std::string> value) { stateUrl_ = std::move(value); }
  std::optional<std::string> const& Details() const { return details_; }
  void SetDetails(std::optional<std::string> value) { details_ = std::move(value); }
  std::optional<std::string> const& DetailsUrl() const { return detailsUrl_; }
  void SetDetailsUrl(std::optional<std::string> value) { detailsUrl_ = std::move(value); }
  std::optional<StatusDisplayTypes> StatusDisplayType() const { return statusDisplayType_; }
  void SetStatusDisplayType(std::optional<StatusDisplayTypes> value) {
    statusDisplayType_ = value;
  }
  /// The application of a received activity (the platform sets it; a game's own is ignored).
  std::optional<uint64_t> ApplicationId() const { return applicationId_; }
  void SetApplicationId(std::optional<uint64_t> value) { applicationId_ = value; }
  std::optional<ActivityAssets> const& Assets() const { return assets_; }
  void SetAssets(std::optional<ActivityAssets> value) { assets_ = std::move(value); }
  std::optional<ActivityTimestamps> const& Timestamps() const { return timestamps_; }
  void SetTimestamps(std::optional<ActivityTimestamps> value) { timestamps_ = std::move(value); }
  std::optional<ActivityParty> const& Party() const { return party_; }
  void SetParty(std::optional<ActivityParty> value) { party_ = std::move(value); }
  /// The player's own secrets; a received activity has none.
  std::optional<ActivitySecrets> const& Secrets() const { return secrets_; }
  void SetSecrets(std::optional<ActivitySecrets> value) { secrets_ = std::move(value); }
  /// Where the activity's join invites can be accepted (ActivityGamePlatforms flags; Desktop).
  ActivityGamePlatforms SupportedPlatforms() const { return supportedPlatforms_; }
  void SetSupportedPlatforms(ActivityGamePlatforms value) { supportedPlatforms_ = value; }
  /// The publisher's parent application of the game, for invites across a publisher's games;
  /// the platform keeps it only when the parent approved a link to this application.
  std::optional<uint64_t> ParentApplicationId() const { return parentApplicationId_; }
  void SetParentApplicationId(std::optional<uint64_t> value) { parentApplicationId_ = value; }
  std::vector<ActivityButton> const& GetButtons() const { return buttons_; }
  /// Adds a link button; UpdateRichPresence refuses more than 2.
  void AddButton(ActivityButton button) { buttons_.push_back(std::move(button)); }
  /// Whether two activities publish the same thing.
  bool Equals(Activity const& other) const;

 private:
  bool valid_ = true;
  std::string name_;
  ActivityTypes type_ = ActivityTypes::Playing;
  std::optional<std::string> state_, stateUrl_, details_, detailsUrl_;
  std::optional<StatusDisplayTypes> statusDisplayType_;
  std::optional<uint64_t> applicationId_;
  std::optional<ActivityAssets> assets_;
  std::optional<ActivityTimestamps> timestamps_;
  std::optional<ActivityParty> party_;
  std::optional<ActivitySecrets> secrets_;
  ActivityGamePlatforms supportedPlatforms_ = ActivityGamePlatforms::Desktop;
  std::optional<uint64_t> parentApplicationId_;
  std::vector<ActivityButton> buttons_;
};

/// An invite to join a player's party, received as a DM message (or made by the game to accept
/// one it learnt of elsewhere: set the sender and the party id at least).
class ActivityInvite {
 public:
  ActivityInvite() = default;
  explicit ActivityInvite(NullTag) : valid_(false) {}
  static const ActivityInvite nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t SenderId() const { return senderId_; }
  void SetSenderId(uint64_t value) { senderId_ = value; }
  uint64_t ChannelId() const { return channelId_; }
  void SetChannelId(uint64_t value) { channelId_ = value; }
  uint64_t MessageId() const { return messageId_; }
  void SetMessageId(uint64_t value) { messageId_ = value; }
  ActivityActionTypes Type() const { return type_; }
  void SetType(ActivityActionTypes value) { type_ = value; }
  /// The inviting application (a sibling application's invites carry theirs).
  uint64_t ApplicationId() const { return applicationId_; }
  void SetApplicationId(uint64_t value) { applicationId_ = value; }
  std::string const& PartyId() const { return partyId_; }
  void SetPartyId(std::string value) { partyId_ = std::move(value); }
  std::string const& SessionId() const { return sessionId_; }
  void SetSessionId(std::string value) { sessionId_ = std::move(value); }
  /// Whether it can still be accepted as far as the client knows.
  bool IsValid() const { return isValid_; }
  void SetIsValid(bool value) { isValid_ = value; }

 private:
  bool valid_ = true;
  uint64_t senderId_ = 0;
  uint64_t channelId_ = 0;
  uint64_t messageId_ = 0;
  ActivityActionTypes type_ = ActivityActionTypes::Join;
  uint64_t applicationId_ = 0;
  std::string partyId_;
  std::string sessionId_;
  bool isValid_ = true;
};

}  // namespace platformpp
