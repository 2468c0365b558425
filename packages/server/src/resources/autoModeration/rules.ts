/**
 * @module resources/autoModeration/rules: a rule's trigger metadata and actions, checked against
 * its trigger type and stored in the wire's shape (every field the type has, defaults filled).
 */
import { invalidField } from '../../errors/index.js';
import type { SettingsJson } from '../../storage/index.js';
import { regexProblem } from './regex.js';
import {
  AUTOMOD_LIMITS,
  AutoModActions,
  AutoModEvents,
  AutoModTriggers,
  type ActionInput,
  type TriggerMetadataInput,
} from './schemas.js';

const T = AutoModTriggers;
const A = AutoModActions;

/** Refuses fields of another trigger type, as the platform does. */
function onlyFields(metadata: TriggerMetadataInput, fields: readonly string[]): void {
  for (const [key, value] of Object.entries(metadata)) {
    if (value != null && !fields.includes(key)) {
      throw invalidField(
        ['trigger_metadata', key],
        'AUTO_MODERATION_INVALID_TRIGGER_METADATA',
        'This field does not apply to the rule trigger type.',
      );
    }
  }
}

function checkRegexes(patterns: readonly string[]): void {
  patterns.forEach((pattern, index) => {
    const problem = regexProblem(pattern);
    if (problem !== null) {
      throw invalidField(
        ['trigger_metadata', 'regex_patterns', index],
        'AUTO_MODERATION_INVALID_REGEX',
        problem,
      );
    }
  });
}

/**
 * Refuses an entry given twice: it would only be matched twice. Keywords and allow-list entries
 * match whatever their case, so `Cat` repeats `cat`; patterns are compared as written.
 */
function checkUnique(field: string, list: readonly string[], foldCase: boolean): void {
  const first = new Map<string, number>();
  list.forEach((entry, index) => {
    const key = foldCase ? entry.toLowerCase() : entry;
    const earlier = first.get(key);
    if (earlier !== undefined) {
      throw invalidField(
        ['trigger_metadata', field, index],
        'AUTO_MODERATION_DUPLICATE_KEYWORD',
        `The same as entry ${String(earlier)}${foldCase ? ' (entries match whatever their case)' : ''}.`,
      );
    }
    first.set(key, index);
  });
}

function checkAllowList(list: readonly string[], max: number): string[] {
  if (list.length > max) {
    throw invalidField(
      ['trigger_metadata', 'allow_list'],
      'BASE_TYPE_MAX_LENGTH',
      `Must be ${String(max)} or fewer in length.`,
    );
  }
  checkUnique('allow_list', list, true);
  return [...list];
}

/** The stored (wire) trigger metadata of a rule of `triggerType`. */
export function triggerMetadataFor(
  triggerType: number,
  input: TriggerMetadataInput | null | undefined,
): SettingsJson {
  const metadata = input ?? {};
  switch (triggerType) {
    case T.KEYWORD:
    case T.MEMBER_PROFILE: {
      onlyFields(metadata, ['keyword_filter', 'regex_patterns', 'allow_list']);
      const keywords = metadata.keyword_filter ?? [];
      const regexes = metadata.regex_patterns ?? [];
      checkUnique('keyword_filter', keywords, true);
      checkUnique('regex_patterns', regexes, false);
      checkRegexes(regexes);
      if (keywords.length === 0 && regexes.length === 0) {
        throw invalidField(
          ['trigger_metadata', 'keyword_filter'],
          'AUTO_MODERATION_KEYWORDS_REQUIRED',
          'A keyword or a regex pattern is required.',
        );
      }
      return {
        keyword_filter: keywords,
        regex_patterns: regexes,
        allow_list: checkAllowList(metadata.allow_list ?? [], AUTOMOD_LIMITS.allowList),
      };
    }
    case T.KEYWORD_PRESET: {
      onlyFields(metadata, ['presets', 'allow_list']);
      const presets = metadata.presets ?? [];
      if (presets.length === 0) {
        throw invalidField(
          ['trigger_metadata', 'presets'],
          'BASE_TYPE_REQUIRED',
          'This field is required',
        );
      }
      return {
        presets,
        allow_list: checkAllowList(metadata.allow_list ?? [], AUTOMOD_LIMITS.presetAllowList),
      };
    }
    case T.MENTION_SPAM: {
      onlyFields(metadata, ['mention_total_limit', 'mention_raid_protection_enabled']);
      if (metadata.mention_total_limit == null) {
        throw invalidField(
          ['trigger_metadata', 'mention_total_limit'],
          'BASE_TYPE_REQUIRED',
          'This field is required',
        );
      }
      return {
        mention_total_limit: metadata.mention_total_limit,
        mention_raid_protection_enabled: metadata.mention_raid_protection_enabled ?? false,
      };
    }
    default:
      onlyFields(metadata, []);
      return {};
  }
}

/** The event a trigger type is checked on: MEMBER_UPDATE for profiles, MESSAGE_SEND otherwise. */
export function checkEventType(triggerType: number, eventType: number): void {
  const expected =
    triggerType === T.MEMBER_PROFILE ? AutoModEvents.MEMBER_UPDATE : AutoModEvents.MESSAGE_SEND;
  if (eventType !== expected) {
    throw invalidField(
      ['event_type'],
      'AUTO_MODERATION_INVALID_EVENT_TYPE',
      'The event type does not apply to the rule trigger type.',
    );
  }
}

/** Which actions each trigger type may take. */
const ALLOWED_ACTIONS: Readonly<Record<number, readonly number[]>> = {
  [T.KEYWORD]: [A.BLOCK_MESSAGE, A.SEND_ALERT_MESSAGE, A.TIMEOUT],
  [T.SPAM]: [A.BLOCK_MESSAGE, A.SEND_ALERT_MESSAGE],
  [T.KEYWORD_PRESET]: [A.BLOCK_MESSAGE, A.SEND_ALERT_MESSAGE],
  [T.MENTION_SPAM]: [A.BLOCK_MESSAGE, A.SEND_ALERT_MESSAGE, A.TIMEOUT],
  [T.MEMBER_PROFILE]: [A.SEND_ALERT_MESSAGE, A.BLOCK_MEMBER_INTERACTION],
};

/**
 * The stored (wire) actions: each checked against the trigger type; an alert names its channel,
 * a timeout its duration. `alertChannelOk` checks a channel is a text channel of the guild.
 */
export function actionsFor(
  triggerType: number,
  input: readonly ActionInput[],
  alertChannelOk: (channelId: string) => boolean,
): SettingsJson[] {
  return input.map((action, index) => {
    const path = ['actions', index];
    if (!(ALLOWED_ACTIONS[triggerType] ?? []).includes(action.type)) {
      throw invalidField(
        [...path, 'type'],
        'AUTO_MODERATION_INVALID_ACTION_TYPE',
        'This action does not apply to the rule trigger type.',
      );
    }
    const metadata = action.metadata ?? {};
    switch (action.type) {
      case A.BLOCK_MESSAGE:
        return {
          type: action.type,
          metadata:
            metadata.custom_message == null ? {} : { custom_message: metadata.custom_message },
        };
      case A.SEND_ALERT_MESSAGE: {
        const channelId = metadata.channel_id;
        if (channelId == null || !alertChannelOk(channelId)) {
          throw invalidField(
            [...path, 'metadata', 'channel_id'],
            'AUTO_MODERATION_INVALID_CHANNEL',
            'The alert channel must be a text channel of the guild.',
          );
        }
        return { type: action.type, metadata: { channel_id: channelId } };
      }
      case A.TIMEOUT: {
        const seconds = metadata.duration_seconds;
        if (seconds == null) {
          throw invalidField(
            [...path, 'metadata', 'duration_seconds'],
            'BASE_TYPE_REQUIRED',
            'This field is required',
          );
        }
        return { type: action.type, metadata: { duration_seconds: seconds } };
      }
      default:
        return { type: action.type, metadata: {} };
    }
  });
}
