// The authorize redirect's loopback listener, on the worker thread: it listens on 127.0.0.1 (a
// free port unless the game chose one), hands the authorize page to the game's opener, and ends
// with the code when the browser comes back with the right state; closed whatever the outcome
// (the code, an error from the server, the timeout, an abort).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "auth.h"
#include "encoding.h"

namespace platformpp::detail {

namespace {

constexpr size_t kMaxRequestBytes = 8192;
constexpr size_t kMaxConnections = 16;

std::string page(int status, std::string const& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') {
      escaped += "&#" + std::to_string(static_cast<int>(c)) + ";";
    } else {
      escaped += c;
    }
  }
  std::string body =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Guildhall</title>"
      "</head><body style=\"font-family:sans-serif;margin:3rem\"><p>" +
      escaped + "</p></body></html>";
  char const* reason = status == 200 ? "OK" : status == 400 ? "Bad Request"
                                           : status == 404 ? "Not Found" : "Gone";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Security-Policy: default-src "
         "'none'; style-src 'unsafe-inline'\r\nReferrer-Policy: no-referrer\r\nCache-Control: "
         "no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

void writeAll(int fd, std::string const& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t wrote = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (wrote > 0) {
      sent += static_cast<size_t>(wrote);
      continue;
    }
    pollfd entry{fd, POLLOUT, 0};
    if (wrote < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && ::poll(&entry, 1, 1000) > 0) {
      continue;
    }
    return;
  }
}

std::map<std::string, std::string> queryOf(std::string const& query) {
  std::map<std::string, std::string> params;
  size_t at = 0;
  while (at <= query.size()) {
    size_t amp = query.find('&', at);
    std::string pair = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
    size_t eq = pair.find('=');
    if (!pair.empty()) {
      params.emplace(percentDecode(pair.substr(0, eq)),
                     eq == std::string::npos ? "" : percentDecode(pair.substr(eq + 1)));
    }
    if (amp == std::string::npos) break;
    at = amp + 1;
  }
  return params;
}

}  // namespace

struct AuthorizeSession : std::enable_shared_from_this<AuthorizeSession> {
  std::shared_ptr<Core> core;
  std::string query;
  std::string state;
  int port = 0;
  std::string path;
  std::string redirectUri;
  std::function<void(ClientResult, std::string, std::string)> done;
  int listener = -1;
  std::map<int, std::string> connections;
  std::optional<TimerId> timer;
  bool settled = false;
  /// The worker the session runs on: alive whenever the session's code runs (on its thread). Not
  /// reached through Core::net there, whose last reference must never be dropped on the worker.
  Worker* worker_ = nullptr;

  Worker* worker() const { return worker_; }

  void begin() {
    listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    int yes = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (listener < 0 ||
        ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(listener, 8) != 0) {
      std::string why = std::strerror(errno);
      finish(failure(ErrorType::NetworkError,
                     "Authorize: the loopback listener could not start on 127.0.0.1:" +
                         std::to_string(port) + " (" + why +
                         "); leave ClientCreateOptions::RedirectUri empty to use a free port."),
             "");
      return;
    }
    socklen_t length = sizeof(address);
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
    ::fcntl(listener, F_SETFL, ::fcntl(listener, F_GETFL) | O_NONBLOCK);
    redirectUri = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + path;
    auto self = shared_from_this();
    Worker* w = worker();
    if (w == nullptr) return;
    w->watch(listener, POLLIN, [self](short) { self->accept(); });
    timer = w->after(std::chrono::milliseconds(kAuthorizeTimeoutMs), [self] {
      self->timer.reset();
      self->finish(failure(ErrorType::Aborted,
                           "Authorize: nobody completed the authorization within " +
                               std::to_string(kAuthorizeTimeoutMs / 1000) +
                               " s; call Authorize() again."),
                   "");
    });
    core->logger.verbose("Waiting for the authorize redirect on " + redirectUri);
    std::string url = core->settings.webBase + "/oauth2/authorize?" + query +
                      "&redirect_uri=" + percentEncode(redirectUri);
    auto shared = core;
    core->post([shared, url] { shared->openUrl(url); });
  }

  void accept() {
    int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    if (connections.size() >= kMaxConnections) {
      ::close(fd);
      return;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    connections[fd] = "";
    auto self = shared_from_this();
    if (Worker* w = worker()) w->watch(fd, POLLIN, [self, fd](short) { self->read(fd); });
  }

  void closeConnection(int fd) {
    if (Worker* w = worker()) w->unwatch(fd);
    connections.erase(fd);
    ::close(fd);
  }

  void read(int fd) {
    char chunk[2048];
    ssize_t got = ::recv(fd, chunk, sizeof(chunk), 0);
    if (got <= 0) {
      if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) closeConnection(fd);
      return;
    }
    auto& buffer = connections[fd];
    buffer.append(chunk, static_cast<size_t>(got));
    if (buffer.size() > kMaxRequestBytes) return closeConnection(fd);
    if (buffer.find("\r\n\r\n") == std::string::npos) return;
    std::string line = buffer.substr(0, buffer.find("\r\n"));
    writeAll(fd, answer(line));
    closeConnection(fd);
  }

  /// The page for one request line ("GET /callback?code=… HTTP/1.1"); may finish the flow.
  std::string answer(std::string const& line) {
    size_t space = line.find(' ');
    size_t end = line.rfind(' ');
    std::string method = line.substr(0, space);
    std::string target =
        space == std::string::npos || end <= space ? "" : line.substr(space + 1, end - space - 1);
    size_t mark = target.find('?');
    std::string targetPath = target.substr(0, mark);
    if (method != "GET" || targetPath != path) return page(404, "Not found.");
    if (settled) return page(410, "This authorization is over. Return to the game.");
    auto params = queryOf(mark == std::string::npos ? "" : target.substr(mark + 1));
    if (params["state"] != state) {
      // Not the browser we sent (or a stale tab): keep waiting for the right one.
      core->logger.warn("The authorize redirect came back with another state; it was ignored.");
      return page(400, "This link does not belong to the authorization under way.");
    }
    if (params.count("error") != 0) {
      std::string error = params["error"];
      std::string description = params.count("error_description") != 0
                                    ? " (" + params["error_description"] + ")"
                                    : "";
      auto result = failure(ErrorType::AuthorizationFailed,
                            error == "access_denied"
                                ? "Authorize: the person declined the authorization."
                                : "Authorize: the server refused the authorization: " + error +
                                      description + ".");
      result.SetOAuthError(error);
      finish(result, "");
      return page(200, "The authorization was not granted. You may close this window.");
    }
    std::string code = params["code"];
    if (code.empty()) return page(400, "The redirect carries no code.");
    core->logger.secret(code);
    finish(okResult(), code);
    return page(200, "You are signed in. You may close this window and return to the game.");
  }

  void finish(ClientResult result, std::string const& code) {
    if (settled) return;
    settled = true;
    if (Worker* w = worker()) {
      if (timer) w->cancel(*timer);
      if (listener >= 0) w->unwatch(listener);
    }
    if (listener >= 0) ::close(listener);
    listener = -1;
    // Answers already written finish on their connections; the listener takes no more.
    core->logger.verbose("The authorize listener is closed.");
    if (result.Successful()) core->logger.info("Authorized: exchange the code with GetToken().");
    auto callback = done;
    std::string uri = result.Successful() ? redirectUri : "";
    core->post([callback, result, code, uri] { callback(result, code, uri); });
  }

  ~AuthorizeSession() {
    for (auto const& [fd, buffer] : connections) ::close(fd);
    if (listener >= 0) ::close(listener);
  }
};

std::optional<std::string> loopbackTarget(std::string const& redirectUri, int& port,
                                          std::string& path) {
  port = 0;
  path = "/callback";
  if (redirectUri.empty()) return std::nullopt;
  std::string const prefix = "http://127.0.0.1";
  auto refusal = "Authorize: the redirect URI must be http://127.0.0.1[:port]/path (got \"" +
                 redirectUri +
                 "\"); leave ClientCreateOptions::RedirectUri empty to use "
                 "http://127.0.0.1/callback on a free port.";
  if (redirectUri.rfind(prefix, 0) != 0) return refusal;
  std::string rest = redirectUri.substr(prefix.size());
  if (!rest.empty() && rest[0] == ':') {
    size_t slash = rest.find('/');
    std::string digits = rest.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
    if (digits.empty() || digits.size() > 5 ||
        digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) > 65535 ||
        std::stoi(digits) == 0) {
      return refusal;
    }
    port = std::stoi(digits);
    rest = slash == std::string::npos ? "" : rest.substr(slash);
  }
  if (rest.empty() || rest[0] != '/' || rest.find_first_of("?#") != std::string::npos) {
    return refusal;
  }
  path = rest;
  return std::nullopt;
}

std::shared_ptr<AuthorizeSession> startAuthorize(
    std::shared_ptr<Core> const& core, std::string authorizeQuery, std::string state, int port,
    std::string path, std::function<void(ClientResult, std::string, std::string)> done) {
  auto session = std::make_shared<AuthorizeSession>();
  session->core = core;
  session->query = std::move(authorizeQuery);
  session->state = std::move(state);
  session->port = port;
  session->path = std::move(path);
  session->done = std::move(done);
  if (auto net = core->net.lock()) {
    session->worker_ = &net->worker;
    net->worker.post([session] { session->begin(); });
  }
  return session;
}

void abortAuthorize(std::shared_ptr<AuthorizeSession> const& session) {
  auto net = session->core->net.lock();
  if (!net) return;
  net->worker.post([session] {
    session->finish(failure(ErrorType::Aborted, "Authorize was aborted."), "");
  });
}

}  // namespace platformpp::detail
