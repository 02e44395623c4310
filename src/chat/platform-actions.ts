/**
 * The OneBot v11 public API (api/public.md of https://github.com/botuniverse/onebot-11) as
 * typed platform actions: each action's params and the data it answers with. Ids may be
 * given as strings (the host's ids are strings); the OneBot adapter sends numeric ones as
 * numbers. Implementations add their own actions: those go through the untyped overload.
 */

/** A user, group or message id: the string the host uses, or the platform's number. */
export type PlatformId = string | number;

/** A message to send: a CQ-code string or OneBot segments. */
export type PlatformMessage =
  | string
  | readonly {
      /** The segment type: `text`, `image`, `at`, `reply`, `face` … */
      type: string;
      /** Its fields, e.g. `{ text: 'hi' }` for `text`, `{ qq: '10001' }` for `at`. */
      data: Record<string, unknown>;
    }[];

type NoParams = Record<string, never>;

/** What a send action answers with. */
export interface MessageIdResult {
  /** The platform's id of the message sent, a number (the host stores ids as strings: compare with `String(id)`). */
  message_id: number;
}

/** A user as `get_stranger_info` describes them. */
export interface StrangerInfo {
  /** The user's QQ number. */
  user_id: number;
  /** Their nickname. */
  nickname: string;
  /** As the user set it; `unknown` when not shown. */
  sex: 'male' | 'female' | 'unknown';
  /** Their age in years, as their profile gives it. */
  age: number;
}

/** A group as `get_group_info` and `get_group_list` describe it. */
export interface GroupInfo {
  /** The group number. */
  group_id: number;
  /** The group's name. */
  group_name: string;
  /** How many members it has now. */
  member_count: number;
  /** How many members it may have. */
  max_member_count: number;
}

/**
 * A group member as `get_group_member_info` and `get_group_member_list` describe them. Times
 * are epoch seconds. The list form may leave some fields empty (`area`, `title` …).
 */
export interface GroupMemberInfo {
  /** The group number. */
  group_id: number;
  /** The member's QQ number. */
  user_id: number;
  /** Their QQ nickname. */
  nickname: string;
  /** Their group card (display name in this group); empty when they set none. */
  card: string;
  /** As the member set it; `unknown` when not shown. */
  sex: 'male' | 'female' | 'unknown';
  /** Their age in years, as their profile gives it. */
  age: number;
  /** Their region, as their profile gives it. */
  area: string;
  /** When they joined the group, epoch seconds. */
  join_time: number;
  /** When they last spoke in the group, epoch seconds. */
  last_sent_time: number;
  /** Their activity level in the group, as the client shows it (text, not always a number). */
  level: string;
  /** Their role in the group. */
  role: 'owner' | 'admin' | 'member';
  /** The platform marks them as having a bad record. */
  unfriendly: boolean;
  /** Their special title in the group; empty when none. */
  title: string;
  /** When the special title expires, epoch seconds. */
  title_expire_time: number;
  /** Whether their group card may be changed. */
  card_changeable: boolean;
}

/**
 * Every typed action of {@link PluginPlatformAccess.call}: for each action name, the `params`
 * it takes and the `result` (OneBot's `data`) it resolves to. Ids in params may be strings or
 * numbers ({@link PlatformId}); ids in results are the platform's numbers. An action the
 * implementation refuses or does not have rejects with the platform's reason.
 */
export interface PlatformActions {
  /** Sends a private message to one user. */
  send_private_msg: {
    /** Whom to send to, and what. */
    params: {
      /** The recipient's QQ number. */
      user_id: PlatformId;
      /** The message: a CQ-code string or segments. */
      message: PlatformMessage;
      /** True: send a string `message` as plain text, CQ codes not parsed (default false). */
      auto_escape?: boolean;
    };
    /** The sent message's id. */
    result: MessageIdResult;
  };
  /** Sends a message to a group. */
  send_group_msg: {
    /** Where to send, and what. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The message: a CQ-code string or segments. */
      message: PlatformMessage;
      /** True: send a string `message` as plain text, CQ codes not parsed (default false). */
      auto_escape?: boolean;
    };
    /** The sent message's id. */
    result: MessageIdResult;
  };
  /** Sends a private or a group message, whichever `message_type` (or the id given) names. */
  send_msg: {
    /** Where to send, and what. */
    params: {
      /** `private` or `group`; absent: decided by which of `user_id` / `group_id` is given. */
      message_type?: 'private' | 'group';
      /** The recipient's QQ number, for a private message. */
      user_id?: PlatformId;
      /** The group number, for a group message. */
      group_id?: PlatformId;
      /** The message: a CQ-code string or segments. */
      message: PlatformMessage;
      /** True: send a string `message` as plain text, CQ codes not parsed (default false). */
      auto_escape?: boolean;
    };
    /** The sent message's id. */
    result: MessageIdResult;
  };
  /** Recalls a message: the bot's own, or, where the bot is a group admin, a member's. */
  delete_msg: {
    /** Which message. */
    params: {
      /** The platform's id of the message to recall. */
      message_id: PlatformId;
    };
    /** No data: resolves to null once recalled. */
    result: null;
  };
  /** Fetches one message by its id. */
  get_msg: {
    /** Which message. */
    params: {
      /** The platform's id of the message. */
      message_id: PlatformId;
    };
    /** The message and who sent it. */
    result: {
      /** When it was sent, epoch seconds. */
      time: number;
      /** Whether it was sent in a private chat or a group. */
      message_type: 'private' | 'group';
      /** Its id, as asked for. */
      message_id: number;
      /** The platform's internal id of the message. */
      real_id: number;
      /** The sender, as in a message event (`user_id`, `nickname`, in groups also `card`, `role` …). */
      sender: Record<string, unknown>;
      /** Its content, as segments or a CQ-code string. */
      message: PlatformMessage;
    };
  };
  /** Fetches the content of a merged-forward message. */
  get_forward_msg: {
    /** Which forward. */
    params: {
      /** The forward's id: the `id` of an inbound `forward` segment (ids are per QQ client: send it as the account that received it). */
      id: string;
    };
    /** Its content. */
    result: {
      /** The forwarded messages, as `node` segments. */
      message: PlatformMessage;
    };
  };
  /** Sends profile likes to a friend. */
  send_like: {
    /** To whom, how many. */
    params: {
      /** The friend's QQ number. */
      user_id: PlatformId;
      /** How many likes (default 1); the platform allows at most 10 a day per friend. */
      times?: number;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Removes a member from a group; the bot must be an admin there. */
  set_group_kick: {
    /** Whom, from where. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** True: also refuse their later requests to join (default false). */
      reject_add_request?: boolean;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Mutes a member in a group, or lifts their mute; the bot must be an admin there. */
  set_group_ban: {
    /** Whom, where, how long. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** Seconds (default 1800, 30 minutes); 0 lifts the mute. */
      duration?: number;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Mutes an anonymous sender in a group (such a mute cannot be lifted). */
  set_group_anonymous_ban: {
    /** Whom (one of `anonymous`, `anonymous_flag`, `flag`; `anonymous` wins when several are given), where, how long. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The `anonymous` object of the sender's message event. */
      anonymous?: Record<string, unknown>;
      /** The anonymous sender's `flag`, from that object. */
      anonymous_flag?: string;
      /** Another name for `anonymous_flag`. */
      flag?: string;
      /** Seconds (default 1800, 30 minutes). */
      duration?: number;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Mutes or unmutes the whole group; the bot must be an admin there. */
  set_group_whole_ban: {
    /** Which group, on or off. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** True mutes the whole group (default), false lifts it. */
      enable?: boolean;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Makes a member a group admin or takes it away; the bot must own the group. */
  set_group_admin: {
    /** Whom, where, set or unset. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** True makes them an admin (default), false takes it away. */
      enable?: boolean;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Allows or forbids anonymous chat in a group; the bot must be an admin there. */
  set_group_anonymous: {
    /** Which group, on or off. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** True allows anonymous messages (default), false forbids them. */
      enable?: boolean;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Sets a member's group card (their display name in the group). */
  set_group_card: {
    /** Whose card, where, to what. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** The new card; empty or absent removes it. */
      card?: string;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Renames a group; the bot must be an admin there. */
  set_group_name: {
    /** Which group, its new name. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The new name. */
      group_name: string;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Leaves a group, or dismisses it when the bot owns it. */
  set_group_leave: {
    /** Which group. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** True: dismiss the group, when the bot is its owner (default false). */
      is_dismiss?: boolean;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Gives a member a special title in a group; the bot must own the group. */
  set_group_special_title: {
    /** Whom, where, which title. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** The title; empty or absent removes it. */
      special_title?: string;
      /** How long it lasts, seconds; -1 (default): for good. Implementations may ignore it. */
      duration?: number;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Answers an `on_request` friend request with its `flag`. */
  set_friend_add_request: {
    /** Which request, and the answer. */
    params: {
      /** The request's `flag` (see {@link FriendRequest}). */
      flag: string;
      /** True accepts (default), false refuses. */
      approve?: boolean;
      /** The new friend's remark (the bot's name for them), when accepting. */
      remark?: string;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Answers an `on_request` group request with its `flag` and `sub_type`; `reason` when refusing. */
  set_group_add_request: {
    /** Which request, and the answer. */
    params: {
      /** The request's `flag` (see {@link GroupRequest}). */
      flag: string;
      /** The request's own `sub_type` (they must match): `add` (someone asks to join) or `invite` (the bot is invited). */
      sub_type: 'add' | 'invite';
      /** True accepts (default), false refuses. */
      approve?: boolean;
      /** Why it is refused, shown to the requester; only when `approve` is false. */
      reason?: string;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** The account the bot is logged in as. */
  get_login_info: {
    /** None: pass `{}`. */
    params: NoParams;
    /** The account. */
    result: {
      /** The bot's QQ number. */
      user_id: number;
      /** The bot's QQ nickname. */
      nickname: string;
    };
  };
  /** Looks up any user, friend or not. */
  get_stranger_info: {
    /** Whom. */
    params: {
      /** The user's QQ number. */
      user_id: PlatformId;
      /** True: ask the platform rather than the client's cache (slower, newer; default false). */
      no_cache?: boolean;
    };
    /** The user's public profile. */
    result: StrangerInfo;
  };
  /** The bot's friends. */
  get_friend_list: {
    /** None: pass `{}`. */
    params: NoParams;
    /** One entry per friend. */
    result: {
      /** The friend's QQ number. */
      user_id: number;
      /** Their nickname. */
      nickname: string;
      /** The bot's remark for them; may be empty. */
      remark: string;
    }[];
  };
  /** Describes one group. */
  get_group_info: {
    /** Which group. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** True: ask the platform rather than the client's cache (slower, newer; default false). */
      no_cache?: boolean;
    };
    /** The group. */
    result: GroupInfo;
  };
  /** The groups the bot is in. */
  get_group_list: {
    /** None: pass `{}`. */
    params: NoParams;
    /** One entry per group. */
    result: GroupInfo[];
  };
  /** Describes one member of a group. */
  get_group_member_info: {
    /** Whom, in which group. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The member's QQ number. */
      user_id: PlatformId;
      /** True: ask the platform rather than the client's cache (slower, newer; default false). */
      no_cache?: boolean;
    };
    /** The member. */
    result: GroupMemberInfo;
  };
  /** Every member of a group. */
  get_group_member_list: {
    /** Which group. */
    params: {
      /** The group number. */
      group_id: PlatformId;
    };
    /** One entry per member; some fields may be empty in this form. */
    result: GroupMemberInfo[];
  };
  /** A group's honours (dragon king and the others). */
  get_group_honor_info: {
    /** Which group, which honours. */
    params: {
      /** The group number. */
      group_id: PlatformId;
      /** The honour to list, or `all`. */
      type: 'talkative' | 'performer' | 'legend' | 'strong_newbie' | 'emotion' | 'all';
    };
    /** The lists asked for (`current_talkative`, `talkative_list`, `performer_list` …), as the implementation gives them. */
    result: Record<string, unknown> & {
      /** The group number. */
      group_id: number;
    };
  };
  /** The QQ web cookies of the logged-in account. */
  get_cookies: {
    /** For which site. */
    params: {
      /** The domain the cookies are for, e.g. `qun.qq.com`. */
      domain?: string;
    };
    /** The cookies. */
    result: {
      /** The cookies, as one `Cookie` header value. */
      cookies: string;
    };
  };
  /** The CSRF token QQ web APIs ask for. */
  get_csrf_token: {
    /** None: pass `{}`. */
    params: NoParams;
    /** The token. */
    result: {
      /** The CSRF token. */
      token: number;
    };
  };
  /** `get_cookies` and `get_csrf_token` in one call. */
  get_credentials: {
    /** For which site. */
    params: {
      /** The domain the cookies are for, e.g. `qun.qq.com`. */
      domain?: string;
    };
    /** Both. */
    result: {
      /** The cookies, as one `Cookie` header value. */
      cookies: string;
      /** The CSRF token. */
      csrf_token: number;
    };
  };
  /** Converts a received voice clip to an audio format (implementations need ffmpeg for it). */
  get_record: {
    /** Which clip, into what. */
    params: {
      /** The clip's `file`, from an inbound `record` segment. */
      file: string;
      /** The format to convert to. */
      out_format: 'mp3' | 'amr' | 'wma' | 'm4a' | 'spx' | 'ogg' | 'wav' | 'flac';
    };
    /** Where the converted file is. */
    result: {
      /** Its path on the machine the QQ client runs on (not necessarily the host's). */
      file: string;
    };
  };
  /** Downloads a received image. */
  get_image: {
    /** Which image. */
    params: {
      /** The image's `file`, from an inbound `image` segment. */
      file: string;
    };
    /** Where the downloaded file is. */
    result: {
      /** Its path on the machine the QQ client runs on (not necessarily the host's). */
      file: string;
    };
  };
  /** Whether the implementation can send images. */
  can_send_image: {
    /** None: pass `{}`. */
    params: NoParams;
    /** The answer. */
    result: {
      /** True when it can. */
      yes: boolean;
    };
  };
  /** Whether the implementation can send voice clips. */
  can_send_record: {
    /** None: pass `{}`. */
    params: NoParams;
    /** The answer. */
    result: {
      /** True when it can. */
      yes: boolean;
    };
  };
  /** How the implementation is doing. */
  get_status: {
    /** None: pass `{}`. */
    params: NoParams;
    /** Its status, with whatever else the implementation adds. */
    result: Record<string, unknown> & {
      /** Whether the account is online; null when the implementation cannot tell. */
      online: boolean | null;
      /** Whether everything works as it should, the account online included. */
      good: boolean;
    };
  };
  /** Which implementation answers, and which version. */
  get_version_info: {
    /** None: pass `{}`. */
    params: NoParams;
    /** Its version, with whatever else the implementation adds. */
    result: Record<string, unknown> & {
      /** The implementation's name, as it calls itself. */
      app_name: string;
      /** Its version. */
      app_version: string;
      /** The OneBot version it speaks, e.g. `v11`. */
      protocol_version: string;
    };
  };
  /** Restarts the OneBot implementation (the QQ client side, not this host); it answers first and restarts after. */
  set_restart: {
    /** When. */
    params: {
      /** Milliseconds to wait before restarting (default 0). */
      delay?: number;
    };
    /** No data: resolves to null. */
    result: null;
  };
  /** Clears the implementation's cache (downloaded images, voice clips …). */
  clean_cache: {
    /** None: pass `{}`. */
    params: NoParams;
    /** No data: resolves to null. */
    result: null;
  };
}

/** The name of a typed action: a key of {@link PlatformActions}. */
export type PlatformActionName = keyof PlatformActions;

/** Which bot account an action goes out as. */
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
  /** Sends an action to the adapter, as `account` (null: the default account); rejects when no adapter with actions is connected. */
  callPlatform(action: string, params?: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  /** Finds a conversation's account, for `streamId` calls; undefined for an unknown stream. */
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
