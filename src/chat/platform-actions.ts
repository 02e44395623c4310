/**
 * The OneBot v11 public API (api/public.md of https://github.com/botuniverse/onebot-11) as
 * typed platform actions: each action's params and the data it answers with. Ids may be
 * given as strings (the host's ids are strings); the OneBot adapter sends numeric ones as
 * numbers. Implementations add their own actions: those go through the untyped overload.
 */

/** A user, group or message id: the string the host uses, or the platform's number. */
export type PlatformId = string | number;

/** A message to send: a CQ-code string or OneBot segments. */
export type PlatformMessage = string | readonly { type: string; data: Record<string, unknown> }[];

type NoParams = Record<string, never>;

export interface MessageIdResult {
  message_id: number;
}

export interface StrangerInfo {
  user_id: number;
  nickname: string;
  sex: 'male' | 'female' | 'unknown';
  age: number;
}

export interface GroupInfo {
  group_id: number;
  group_name: string;
  member_count: number;
  max_member_count: number;
}

export interface GroupMemberInfo {
  group_id: number;
  user_id: number;
  nickname: string;
  card: string;
  sex: 'male' | 'female' | 'unknown';
  age: number;
  area: string;
  join_time: number;
  last_sent_time: number;
  level: string;
  role: 'owner' | 'admin' | 'member';
  unfriendly: boolean;
  title: string;
  title_expire_time: number;
  card_changeable: boolean;
}

export interface PlatformActions {
  send_private_msg: { params: { user_id: PlatformId; message: PlatformMessage; auto_escape?: boolean }; result: MessageIdResult };
  send_group_msg: { params: { group_id: PlatformId; message: PlatformMessage; auto_escape?: boolean }; result: MessageIdResult };
  send_msg: {
    params: { message_type?: 'private' | 'group'; user_id?: PlatformId; group_id?: PlatformId; message: PlatformMessage; auto_escape?: boolean };
    result: MessageIdResult;
  };
  delete_msg: { params: { message_id: PlatformId }; result: null };
  get_msg: {
    params: { message_id: PlatformId };
    result: { time: number; message_type: 'private' | 'group'; message_id: number; real_id: number; sender: Record<string, unknown>; message: PlatformMessage };
  };
  get_forward_msg: { params: { id: string }; result: { message: PlatformMessage } };
  send_like: { params: { user_id: PlatformId; times?: number }; result: null };
  set_group_kick: { params: { group_id: PlatformId; user_id: PlatformId; reject_add_request?: boolean }; result: null };
  /** `duration` in seconds (default 30 min); 0 lifts the ban. */
  set_group_ban: { params: { group_id: PlatformId; user_id: PlatformId; duration?: number }; result: null };
  set_group_anonymous_ban: {
    params: { group_id: PlatformId; anonymous?: Record<string, unknown>; anonymous_flag?: string; flag?: string; duration?: number };
    result: null;
  };
  set_group_whole_ban: { params: { group_id: PlatformId; enable?: boolean }; result: null };
  set_group_admin: { params: { group_id: PlatformId; user_id: PlatformId; enable?: boolean }; result: null };
  set_group_anonymous: { params: { group_id: PlatformId; enable?: boolean }; result: null };
  set_group_card: { params: { group_id: PlatformId; user_id: PlatformId; card?: string }; result: null };
  set_group_name: { params: { group_id: PlatformId; group_name: string }; result: null };
  set_group_leave: { params: { group_id: PlatformId; is_dismiss?: boolean }; result: null };
  set_group_special_title: { params: { group_id: PlatformId; user_id: PlatformId; special_title?: string; duration?: number }; result: null };
  /** Answers an `on_request` friend request with its `flag`. */
  set_friend_add_request: { params: { flag: string; approve?: boolean; remark?: string }; result: null };
  /** Answers an `on_request` group request with its `flag` and `sub_type`; `reason` when refusing. */
  set_group_add_request: { params: { flag: string; sub_type: 'add' | 'invite'; approve?: boolean; reason?: string }; result: null };
  get_login_info: { params: NoParams; result: { user_id: number; nickname: string } };
  get_stranger_info: { params: { user_id: PlatformId; no_cache?: boolean }; result: StrangerInfo };
  get_friend_list: { params: NoParams; result: { user_id: number; nickname: string; remark: string }[] };
  get_group_info: { params: { group_id: PlatformId; no_cache?: boolean }; result: GroupInfo };
  get_group_list: { params: NoParams; result: GroupInfo[] };
  get_group_member_info: { params: { group_id: PlatformId; user_id: PlatformId; no_cache?: boolean }; result: GroupMemberInfo };
  get_group_member_list: { params: { group_id: PlatformId }; result: GroupMemberInfo[] };
  get_group_honor_info: {
    params: { group_id: PlatformId; type: 'talkative' | 'performer' | 'legend' | 'strong_newbie' | 'emotion' | 'all' };
    result: Record<string, unknown> & { group_id: number };
  };
  get_cookies: { params: { domain?: string }; result: { cookies: string } };
  get_csrf_token: { params: NoParams; result: { token: number } };
  get_credentials: { params: { domain?: string }; result: { cookies: string; csrf_token: number } };
  get_record: { params: { file: string; out_format: 'mp3' | 'amr' | 'wma' | 'm4a' | 'spx' | 'ogg' | 'wav' | 'flac' }; result: { file: string } };
  get_image: { params: { file: string }; result: { file: string } };
  can_send_image: { params: NoParams; result: { yes: boolean } };
  can_send_record: { params: NoParams; result: { yes: boolean } };
  get_status: { params: NoParams; result: Record<string, unknown> & { online: boolean | null; good: boolean } };
  get_version_info: { params: NoParams; result: Record<string, unknown> & { app_name: string; app_version: string; protocol_version: string } };
  set_restart: { params: { delay?: number }; result: null };
  clean_cache: { params: NoParams; result: null };
}

export type PlatformActionName = keyof PlatformActions;

export interface PlatformCallOptions {
  /**
   * The bot account to act as: the `self_id` of the event being answered. Without it (and
   * without `streamId`), the action goes to the account named in `bot.toml [accounts]`,
   * else the newest connection.
   */
  account?: string | null;
  /**
   * Act as the account this conversation belongs to (a tool call's `streamId`): the
   * action goes to that account's connection only. `account`, when given, wins.
   */
  streamId?: string;
}

/** `ctx.platform`: the connected platform's actions, for plugins. */
export interface PluginPlatformAccess {
  /** Calls a v11 action with typed params; resolves to its data, rejects with the platform's reason. */
  call<A extends PlatformActionName>(action: A, params: PlatformActions[A]['params'], options?: PlatformCallOptions): Promise<PlatformActions[A]['result']>;
  /** Calls any other action (an implementation's extension, e.g. NapCat's `set_msg_emoji_like`). */
  call(action: string, params?: Readonly<Record<string, unknown>>, options?: PlatformCallOptions): Promise<unknown>;
}

/** The part of the chat runtime `ctx.platform` calls through. */
export interface PlatformCaller {
  callPlatform(action: string, params?: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  readonly streams: { activateStream(streamId: string): { readonly account: string | null } | undefined };
}

/** Builds `ctx.platform` for one plugin; `caller()` is the host's chat runtime (absent in a host without chat). */
export function createPluginPlatformAccess(pluginId: string, caller: () => PlatformCaller | undefined): PluginPlatformAccess {
  return Object.freeze({
    call(action: string, params: Readonly<Record<string, unknown>> = {}, options: PlatformCallOptions = {}): Promise<never> {
      const runtime = caller();
      if (runtime === undefined) return Promise.reject(new Error(`plugin ${pluginId} called ctx.platform.call('${action}'), but this host has no chat runtime (no platform)`));
      if ((options.account === undefined || options.account === null) && options.streamId !== undefined) {
        const stream = runtime.streams.activateStream(options.streamId);
        if (stream === undefined) return Promise.reject(new Error(`plugin ${pluginId} called ctx.platform.call('${action}') for stream ${options.streamId}, which is not a known conversation`));
        return runtime.callPlatform(action, params, stream.account) as Promise<never>;
      }
      return runtime.callPlatform(action, params, options.account ?? null) as Promise<never>;
    },
  }) as PluginPlatformAccess;
}
