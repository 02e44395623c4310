// Forward trees as a OneBot implementation answers get_forward_msg, and helpers to serve them.

/** A OneBot group message event carrying a forward segment (array form). */
export function groupForwardEvent(id: string, groupId = 555): Record<string, unknown> {
  return {
    post_type: 'message',
    message_type: 'group',
    group_id: groupId,
    user_id: 10001,
    message_id: 1,
    message: [{ type: 'forward', data: { id } }],
  };
}

/** A OneBot private message event carrying a forward as a CQ string. */
export function privateForwardEvent(id: string): Record<string, unknown> {
  return { post_type: 'message', message_type: 'private', user_id: 10001, message_id: 2, message: `[CQ:forward,id=${id}]` };
}

/** The outer layer: text, an image, and a nested forward that carries only its id. */
export const OUTER = {
  messages: [
    { sender: { user_id: 1, nickname: '阿明' }, time: 1, message: [{ type: 'text', data: { text: '今晚吃什么' } }] },
    {
      sender: { user_id: 2, nickname: '小红' },
      time: 2,
      message: [
        { type: 'image', data: { file: 'cat.jpg', url: 'https://img.example/cat.jpg' } },
        { type: 'text', data: { text: '看这只猫' } },
      ],
    },
    { sender: { user_id: 3, nickname: '老王' }, time: 3, message: [{ type: 'forward', data: { id: 'inner-1' } }] },
  ],
};

/** The nested layer, in the CQ-string form. */
export const INNER = { messages: [{ sender: { user_id: 4, nickname: '小李' }, time: 4, message: '[CQ:face,id=1]火锅！' }] };

/** A forward of `count` numbered messages, each about 60 characters long. */
export function longForward(count: number): { messages: unknown[] } {
  return {
    messages: Array.from({ length: count }, (_, index) => ({
      sender: { user_id: 100 + index, nickname: `群友${index + 1}` },
      time: index,
      message: [{ type: 'text', data: { text: `第${index + 1}条消息：${'这是一段用来凑长度的聊天内容。'.repeat(3)}` } }],
    })),
  };
}

/** A get_forward_msg handler over a table of trees; an unknown id is refused like OneBot does. */
export function forwardServer(trees: Record<string, unknown>): (params: Readonly<Record<string, unknown>>) => unknown {
  return (params) => {
    const tree = trees[String(params['id'])];
    if (tree === undefined) throw new Error(`retcode 100: 消息不存在 (id ${String(params['id'])})`);
    return tree;
  };
}
