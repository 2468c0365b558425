// What differs between operating systems: opening the system browser, naming the platform in
// IDENTIFY, pinning the SDK's threads to CPUs.
#pragma once

#include <cstdint>
#include <string>

namespace platformpp::detail {

/// Starts the system's URL handler (xdg-open, open, ShellExecute) without a shell; false when it
/// could not be started.
bool openInSystemBrowser(std::string const& url);
/// "linux", "macos", "windows"…
char const* platformName();
/// Pins the calling thread to the CPUs of `mask` (Linux; elsewhere nothing).
void pinCurrentThread(uint64_t mask);

}  // namespace platformpp::detail
