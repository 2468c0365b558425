// Client: construction, connection, status, tokens, logging, and the results every operation
// shares. The feature areas are in client_*.cpp.
#include "auth.h"
#include "client_impl.h"
#include "version.h"

namespace platformpp {

namespace detail {

namespace {

std::string trimSlashes(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

/// scheme://host[:port] of a URL.
std::string originOf(std::string const& url) {
  size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  size_t path = url.find('/', scheme + 3);
  return path == std::string::npos ? url : url.substr(0, path);
}

Settings settingsOf(ClientCreateOptions const& options) {
  Settings settings;
  settings.apiBase = trimSlashes(options.ApiBase().empty() ? ClientCreateOptions().ApiBase()
                                                           : options.ApiBase());
  settings.webBase =
      trimSlashes(options.WebBase().empty() ? originOf(settings.apiBase) : options.WebBase());
  settings.redirectUri = options.RedirectUri();
  settings.gatewayCompression = options.GatewayCompression();
  settings.cpuAffinityMask = options.CpuAffinityMask();
  return settings;
}

}  // namespace

ClientImpl::ClientImpl(ClientCreateOptions const& options)
    : core(std::make_shared<Core>(settingsOf(options))),
      net(std::make_shared<Net>(core)),
      auth(std::make_shared<AuthFlows>()) {
  core->net = net;
  installHandlers(*core);
  registerCore(core);
  net->start();
}

ClientImpl::~ClientImpl() {
  core->destroyed = true;
  net.reset();
  // Queued callbacks hold the core: dropped, they let it go once no handle holds it.
  core->clearQueue();
}

void sendRequest(std::shared_ptr<Core> const& core, HttpRequest request,
                 std::function<void(HttpOutcome)> onGame) {
  auto net = core->net.lock();
  if (!net) {
    HttpOutcome outcome;
    outcome.result = failure(ErrorType::ClientDestroyed, "The client was destroyed.");
    core->post([onGame, outcome] { onGame(outcome); });
    return;
  }
  std::weak_ptr<Core> weak = core;
  net->worker.request(std::move(request), [weak, onGame](HttpOutcome outcome) {
    if (auto shared = weak.lock()) shared->post([onGame, outcome] { onGame(outcome); });
  });
}

ClientResult okResult() { return ClientResult(); }

ClientResult failure(ErrorType type, std::string message) {
  ClientResult result;
  result.SetSuccessful(false);
  result.SetType(type);
  result.SetError(std::move(message));
  return result;
}

ClientResult validationError(std::string message) {
  return failure(ErrorType::ValidationError, std::move(message));
}

ClientResult notReadyError(std::string const& operation) {
  return failure(ErrorType::ClientNotReady,
                 operation +
                     " needs a ready client: call UpdateToken() and Connect(), and wait for "
                     "Client::Status::Ready.");
}

ClientResult voiceUnavailable(std::string const& operation) {
  return failure(ErrorType::Disabled,
                 operation +
                     ": voice is not available in the native SDK (lobby calls need the DAVE "
                     "end-to-end encryption, which this SDK does not have yet; docs/sdk-cpp.md, "
                     "Voice).");
}

}  // namespace detail

const Client Client::nullobj{NullTag{}};

Client::Client() : Client(ClientCreateOptions()) {}

Client::Client(std::string apiBase, std::string webBase) {
  ClientCreateOptions options;
  options.SetApiBase(std::move(apiBase));
  options.SetWebBase(std::move(webBase));
  impl_ = std::make_shared<detail::ClientImpl>(options);
}

Client::Client(ClientCreateOptions options) {
  impl_ = std::make_shared<detail::ClientImpl>(options ? options : ClientCreateOptions());
}

Client::Client(NullTag) {}

std::string Client::StatusToString(Status status) {
  switch (status) {
    case Status::Disconnected: return "Disconnected";
    case Status::Connecting: return "Connecting";
    case Status::Connected: return "Connected";
    case Status::Ready: return "Ready";
    case Status::Reconnecting: return "Reconnecting";
    case Status::Disconnecting: return "Disconnecting";
    case Status::HttpWait: return "HttpWait";
  }
  return "Unknown";
}

std::string Client::ErrorToString(Error error) {
  switch (error) {
    case Error::None: return "None";
    case Error::ConnectionFailed: return "ConnectionFailed";
    case Error::UnexpectedClose: return "UnexpectedClose";
    case Error::ConnectionCanceled: return "ConnectionCanceled";
  }
  return "Unknown";
}

int32_t Client::GetVersionMajor() { return detail::kVersionMajor; }
int32_t Client::GetVersionMinor() { return detail::kVersionMinor; }
int32_t Client::GetVersionPatch() { return detail::kVersionPatch; }

void Client::Connect() {
  if (impl_) impl_->net->gateway.connect();
}

void Client::Disconnect() {
  if (impl_) impl_->net->gateway.disconnect();
}

Client::Status Client::GetStatus() const {
  if (!impl_) return Status::Disconnected;
  std::lock_guard lock(impl_->core->mutex);
  return impl_->core->status;
}

void Client::SetStatusChangedCallback(OnStatusChanged callback) {
  if (impl_) impl_->core->setCallback(&detail::Callbacks::statusChanged, std::move(callback));
}

void Client::SetApplicationId(uint64_t applicationId) {
  if (!impl_) return;
  std::lock_guard lock(impl_->core->mutex);
  impl_->core->applicationId = applicationId;
}

uint64_t Client::GetApplicationId() const {
  return impl_ ? impl_->core->ownApplicationId() : 0;
}

void Client::UpdateToken(AuthorizationTokenType tokenType, std::string token,
                         UpdateTokenCallback callback) {
  if (!impl_) return;
  bool blank = token.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) {
    impl_->later(callback, detail::validationError("UpdateToken: the token is empty."));
    return;
  }
  impl_->core->setToken(tokenType, std::move(token));
  impl_->core->logger.info("Token updated.");
  detail::tokenChanged(impl_->core);
  impl_->later(callback, detail::okResult());
}

bool Client::IsAuthenticated() const { return impl_ && impl_->core->hasToken(); }

void Client::SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds) {
  if (!impl_) return;
  if (httpTimeoutInMilliseconds <= 0) {
    impl_->core->logger.error(
        "SetHttpRequestTimeout: the timeout must be a positive number of ms; it stays " +
        std::to_string(impl_->core->httpTimeoutMs.load()) + " ms.");
    return;
  }
  impl_->core->httpTimeoutMs = httpTimeoutInMilliseconds;
}

void Client::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  if (impl_ && callback) impl_->core->logger.add(std::move(callback), minSeverity);
}

void Client::SetOpenUrlCallback(OpenUrlCallback callback) {
  if (impl_) impl_->core->setCallback(&detail::Callbacks::openUrl, std::move(callback));
}

std::string Client::GetDefaultCommunicationScopes() { return "openid sdk.social_layer"; }
std::string Client::GetDefaultPresenceScopes() { return "openid sdk.social_layer_presence"; }

}  // namespace platformpp
