/**
 * `@guildhall/testkit`: Guildhall as a test harness (docs/testing.md). Start the platform in
 * your test process with a world, act as its people through the platform's public routes, wait
 * for what they and the bots see, move the platform's clock and make it misbehave on purpose.
 *
 * @module
 */
export {
  startGuildhall,
  type Faults,
  type Guildhall,
  type PlatformClock,
  type StartOptions,
} from './start.js';
export {
  describeEntry,
  waitForLogEntry,
  type ControlLog,
  type LogEntry,
  type LogFilter,
} from './observe.js';
export { People } from './people.js';
export {
  Person,
  type ActivityInstance,
  type EmojiInput,
  type MessageInput,
  type MessageRef,
  type PersonIdentity,
  type PlatformUrls,
  type PresenceInput,
  type Relationship,
} from './person.js';
export { Interaction, type ClickedMessage, type CommandChoice } from './interactions.js';
export type { CommandOptions, OptionValue } from './commandOptions.js';
export type { Component, Modal, ModalAnswer } from './components.js';
export { VoiceCall, PCM_FRAME_SAMPLES, type HeardAudio, type VoiceSeat } from './voice.js';
export { PersonSession, PERSON_INTENTS, type Dispatch } from './session.js';
export { EventLog, DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './eventLog.js';
export {
  createRestClient,
  API_VERSION,
  type FileInput,
  type RequestInit,
  type RestClient,
} from './rest.js';
export {
  GuildhallApiError,
  InteractionFailedError,
  WaitTimeoutError,
  type PlatformErrorBody,
} from './errors.js';
export type { LoadedWorld, WorldFile } from '@guildhall/server';
