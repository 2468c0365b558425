// The device flow (RFC 8628), for an app whose owner enabled it (device_flow_enabled): the
// activation page goes to the game's opener and its code to the log; the SDK polls the token
// endpoint until the person approves or denies, the code expires, or AbortGetTokenFromDevice.
#include <chrono>

#include "auth.h"

namespace platformpp {

namespace detail {

namespace {

constexpr char kDeviceCodeGrant[] = "urn:ietf:params:oauth:grant-type:device_code";
/// RFC 8628 §3.5: each slow_down adds five seconds to the interval.
constexpr int64_t kSlowDownStepMs = 5000;
constexpr int64_t kDefaultIntervalSeconds = 5;

}  // namespace

struct DeviceSession : std::enable_shared_from_this<DeviceSession> {
  std::shared_ptr<Core> core;
  std::shared_ptr<AuthFlows> flows;
  std::string op;
  uint64_t clientId = 0;
  std::vector<std::pair<std::string, std::string>> extra;
  Client::TokenExchangeCallback callback;
  std::string deviceCode;
  int64_t intervalMs = kDefaultIntervalSeconds * 1000;
  std::chrono::steady_clock::time_point deadline;
  std::atomic<bool> ended{false};

  /// Ends the flow once (game thread): the callback, and the flow is no longer under way.
  void end(HttpOutcome const& outcome) {
    if (ended.exchange(true)) return;
    {
      std::lock_guard lock(flows->mutex);
      if (flows->device.get() == this) flows->device.reset();
    }
    deliverTokens(*core, outcome, callback);
  }

  void waitThenPoll() {
    auto net = core->net.lock();
    if (!net) return;
    auto self = shared_from_this();
    auto& worker = net->worker;
    int64_t wait = intervalMs;
    worker.post([self, &worker, wait] {
      worker.after(std::chrono::milliseconds(wait), [self] {
        self->core->post([self] { self->poll(); });
      });
    });
  }

  void poll() {
    if (ended) return;
    if (std::chrono::steady_clock::now() > deadline) {
      HttpOutcome expired;
      expired.result = failure(ErrorType::AuthorizationFailed,
                               op + ": the device code expired before it was approved; start "
                                    "again.");
      expired.result.SetOAuthError("expired_token");
      end(expired);
      return;
    }
    std::vector<std::pair<std::string, std::string>> form = {
        {"grant_type", kDeviceCodeGrant},
        {"client_id", std::to_string(clientId)},
        {"device_code", deviceCode}};
    form.insert(form.end(), extra.begin(), extra.end());
    auto self = shared_from_this();
    oauthPost(core, op, "/oauth2/token", std::move(form), [self](HttpOutcome outcome) {
      if (self->ended) return;
      auto const& oauthError = outcome.result.OAuthError();
      if (!outcome.result.Successful() && oauthError == "authorization_pending") {
        return self->waitThenPoll();
      }
      if (!outcome.result.Successful() && oauthError == "slow_down") {
        self->intervalMs += kSlowDownStepMs;
        return self->waitThenPoll();
      }
      self->end(outcome);
    });
  }

  void begin(std::string const& scopes) {
    auto self = shared_from_this();
    oauthPost(core, op, "/oauth2/device/authorize",
              {{"client_id", std::to_string(clientId)}, {"scope", scopes}},
              [self](HttpOutcome outcome) {
                if (self->ended) return;
                if (!outcome.result.Successful()) return self->end(outcome);
                auto const& body = outcome.body;
                self->deviceCode = strAt(body, "device_code");
                self->core->logger.secret(self->deviceCode);
                std::string uri = strAt(body, "verification_uri");
                self->core->logger.info("To link your account, open " + uri +
                                        " and enter the code " + strAt(body, "user_code") + ".");
                self->intervalMs = intAt(body, "interval", kDefaultIntervalSeconds) * 1000;
                self->deadline = std::chrono::steady_clock::now() +
                                 std::chrono::seconds(intAt(body, "expires_in", 600));
                self->core->openUrl(strAt(body, "verification_uri_complete", uri));
                self->waitThenPoll();
              });
  }
};

void startDeviceFlow(std::shared_ptr<Core> const& core, std::shared_ptr<AuthFlows> const& flows,
                     std::string const& op, uint64_t clientId, std::string scopes,
                     std::vector<std::pair<std::string, std::string>> extra,
                     Client::TokenExchangeCallback callback) {
  auto session = std::make_shared<DeviceSession>();
  session->core = core;
  session->flows = flows;
  session->op = op;
  session->clientId = clientId;
  session->extra = std::move(extra);
  session->callback = std::move(callback);
  {
    std::lock_guard lock(flows->mutex);
    if (flows->device) {
      HttpOutcome busy;
      busy.result = validationError(
          op + ": a device authorization is already under way; AbortGetTokenFromDevice() ends "
               "it.");
      auto cb = session->callback;
      core->post([core, busy, cb] { deliverTokens(*core, busy, cb); });
      return;
    }
    flows->device = session;
  }
  session->begin(scopes);
}

void abortDeviceFlow(std::shared_ptr<AuthFlows> const& flows) {
  std::shared_ptr<DeviceSession> pending;
  {
    std::lock_guard lock(flows->mutex);
    pending = flows->device;
  }
  if (!pending) return;
  auto core = pending->core;
  core->post([pending] {
    HttpOutcome aborted;
    aborted.result = failure(ErrorType::Aborted, pending->op + " was aborted.");
    pending->end(aborted);
  });
}

}  // namespace detail

void Client::GetTokenFromDevice(DeviceAuthorizationArgs args, TokenExchangeCallback callback) {
  GetTokenFromDeviceProvisionalMerge(std::move(args), AuthenticationExternalAuthType::OIDC, "",
                                     std::move(callback));
}

void Client::GetTokenFromDeviceProvisionalMerge(DeviceAuthorizationArgs args,
                                                AuthenticationExternalAuthType externalAuthType,
                                                std::string const& externalAuthToken,
                                                TokenExchangeCallback callback) {
  if (!impl_) return;
  bool merge = !externalAuthToken.empty();
  std::string op = merge ? "GetTokenFromDeviceProvisionalMerge" : "GetTokenFromDevice";
  auto refuse = [&](std::string message) {
    impl_->later(callback, detail::validationError(std::move(message)), std::string(),
                 std::string(), AuthorizationTokenType::Bearer, int32_t{0}, std::string());
  };
  if (!args) return refuse(op + ": pass a DeviceAuthorizationArgs.");
  if (args.Scopes().find_first_not_of(' ') == std::string::npos) {
    return refuse(op + ": DeviceAuthorizationArgs has no scopes; call SetScopes().");
  }
  if (auto refused = detail::checkScopes(op, args.Scopes())) return refuse(*refused);
  std::vector<std::pair<std::string, std::string>> extra;
  if (merge) {
    std::string wire;
    if (auto refused = detail::externalAuth(op, externalAuthType, externalAuthToken, wire)) {
      return refuse(*refused);
    }
    impl_->core->logger.secret(externalAuthToken);
    extra = {{"external_auth_type", wire}, {"external_auth_token", externalAuthToken}};
  }
  uint64_t clientId = args.ClientId().value_or(GetApplicationId());
  if (clientId == 0) {
    return refuse(op + " needs an application id: call SetApplicationId() first.");
  }
  detail::startDeviceFlow(impl_->core, impl_->auth, op, clientId, args.Scopes(), std::move(extra),
                          std::move(callback));
}

void Client::AbortGetTokenFromDevice() {
  if (impl_) detail::abortDeviceFlow(impl_->auth);
}

}  // namespace platformpp
