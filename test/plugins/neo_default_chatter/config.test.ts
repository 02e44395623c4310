import { describe, expect, it } from 'vitest';
import { NeoChatterConfig } from '../../../src/plugins/built_in/neo_default_chatter/config.js';

describe('NeoChatterConfig', () => {
  it('has the reference\'s [plugin] fields and defaults, enabled by default (NDFC is the default chatter), and the preprocess gate values', () => {
    expect(NeoChatterConfig.parse({})).toEqual({
      enabled: true,
      native_multimodal: false,
      image_placeholder_template: '[图片-{idx}]',
      enable_stop_direct_message_wake: false,
      stop_direct_message_wake_probability: 0.5,
      reinforce_negative_behaviors: true,
      default_stop_minutes: 5,
      typing_delay_per_char: 0.5,
      typing_delay_max_seconds: 10,
      enable_cooldown: true,
      enable_action_suspend: true,
      max_follow_up_rounds: 8,
      actor_task_name: 'actor',
      introduce: '',
      probability_base: 0.1,
      probability_mention: 0.7,
      probability_name: 0.4,
      probability_per_unread: 0.05,
      enable_sub_agent_decision: false,
      sub_agent_task_name: 'actor',
    });
  });

  it('describes every field (the description becomes the comment in config.toml)', () => {
    for (const [field, schema] of Object.entries(NeoChatterConfig.shape)) {
      expect(schema.description, field).toMatch(/\S/);
    }
  });

  it('refuses probabilities outside 0..1', () => {
    expect(NeoChatterConfig.safeParse({ probability_base: 1.5 }).success).toBe(false);
    expect(NeoChatterConfig.safeParse({ stop_direct_message_wake_probability: -0.1 }).success).toBe(false);
  });
});
