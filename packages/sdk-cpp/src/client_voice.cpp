// Voice: not available in the native SDK. Lobby calls must be end-to-end encrypted (DAVE), which
// this SDK does not have yet; every voice operation exists and answers so, and nothing pretends to
// connect (docs/sdk-cpp.md, Voice).
#include "client_impl.h"

namespace platformpp {

namespace {

void refuse(detail::ClientImpl& impl, std::string const& op, Client::VoiceResultCallback callback) {
  impl.later(callback, detail::voiceUnavailable(op));
}

void logRefusal(detail::ClientImpl& impl, std::string const& op) {
  impl.core->logger.error(detail::voiceUnavailable(op).Error());
}

}  // namespace

Call Client::StartCall(uint64_t) {
  if (impl_) logRefusal(*impl_, "StartCall");
  return Call();
}

Call Client::StartCallWithAudioCallbacks(uint64_t) {
  if (impl_) logRefusal(*impl_, "StartCallWithAudioCallbacks");
  return Call();
}

void Client::EndCall(uint64_t, EndCallCallback callback) {
  if (impl_) refuse(*impl_, "EndCall", callback);
}

void Client::EndCalls(EndCallsCallback callback) {
  if (impl_) refuse(*impl_, "EndCalls", callback);
}

Call Client::GetCall(uint64_t) const { return Call(); }
std::vector<Call> Client::GetCalls() const { return {}; }
VoiceSettings Client::GetVoiceSettings() const { return VoiceSettings::nullobj; }

void Client::SetVoiceSettingsUpdatedCallback(VoiceSettingsUpdatedCallback callback) {
  // Kept, never called: there are no voice settings to change.
  if (impl_) impl_->core->setCallback(&detail::Callbacks::voiceSettingsUpdated, std::move(callback));
}

void Client::SetVoiceParticipantChangedCallback(VoiceParticipantChangedCallback callback) {
  if (impl_) {
    impl_->core->setCallback(&detail::Callbacks::voiceParticipantChanged, std::move(callback));
  }
}

void Client::GetInputDevices(GetAudioDevicesCallback callback) {
  if (!impl_) return;
  logRefusal(*impl_, "GetInputDevices");
  impl_->later(callback, std::vector<AudioDevice>{});
}

void Client::GetOutputDevices(GetAudioDevicesCallback callback) {
  if (!impl_) return;
  logRefusal(*impl_, "GetOutputDevices");
  impl_->later(callback, std::vector<AudioDevice>{});
}

void Client::GetCurrentInputDevice(GetCurrentDeviceCallback callback) {
  if (!impl_) return;
  logRefusal(*impl_, "GetCurrentInputDevice");
  impl_->later(callback, AudioDevice::nullobj);
}

void Client::GetCurrentOutputDevice(GetCurrentDeviceCallback callback) {
  if (!impl_) return;
  logRefusal(*impl_, "GetCurrentOutputDevice");
  impl_->later(callback, AudioDevice::nullobj);
}

void Client::SetInputDevice(std::string const&, SetDeviceCallback callback) {
  if (impl_) refuse(*impl_, "SetInputDevice", callback);
}

void Client::SetOutputDevice(std::string const&, SetDeviceCallback callback) {
  if (impl_) refuse(*impl_, "SetOutputDevice", callback);
}

float Client::GetInputVolume() const { return 0; }
void Client::SetInputVolume(float) {
  if (impl_) logRefusal(*impl_, "SetInputVolume");
}
float Client::GetOutputVolume() const { return 0; }
void Client::SetOutputVolume(float) {
  if (impl_) logRefusal(*impl_, "SetOutputVolume");
}
bool Client::GetSelfMuteAll() const { return false; }
void Client::SetSelfMuteAll(bool) {
  if (impl_) logRefusal(*impl_, "SetSelfMuteAll");
}
bool Client::GetSelfDeafAll() const { return false; }
void Client::SetSelfDeafAll(bool) {
  if (impl_) logRefusal(*impl_, "SetSelfDeafAll");
}

void Client::SetEngineManagedAudioSession(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetEngineManagedAudioSession", callback);
}
void Client::SetSpeakerMode(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetSpeakerMode", callback);
}
void Client::SetAecDump(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetAecDump", callback);
}
void Client::SetVoiceLogDir(std::string const&, LoggingSeverity, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetVoiceLogDir", callback);
}
void Client::SetAutomaticGainControl(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetAutomaticGainControl", callback);
}
void Client::SetEchoCancellation(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetEchoCancellation", callback);
}
void Client::SetNoiseSuppression(bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetNoiseSuppression", callback);
}
void Client::SetNoAudioInputThreshold(float, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetNoAudioInputThreshold", callback);
}
void Client::SetOpusHardwareCoding(bool, bool, VoiceResultCallback callback) {
  if (impl_) refuse(*impl_, "SetOpusHardwareCoding", callback);
}

}  // namespace platformpp
