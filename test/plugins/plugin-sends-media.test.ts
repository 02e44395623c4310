import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolReply, useTestHosts } from '../support/ndfc.js';
import { useProjectTempDir } from '../support/temp-dir.js';

// A plugin author's own code sends a picture: a tool through `this.ctx.chat.streams.send`
// (with the ToolContext's stream id), an action through its ActionContext's `streams.send`.
const PLUGIN = `
import { action, BaseAction, ToolExecutionResult, ToolPlugin, tool, type ActionContext, type ToolContext, type ToolInvocation } from 'moonglass';

@action('show_picture', { description: '发一张图。' })
export class ShowPicture extends BaseAction {
  async execute(_args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult> {
    const outcome = await context.streams.send(context.streamId, { content: '给你看', media: [{ kind: 'image', file: 'https://pictures.example/moon.jpg' }] });
    return ToolExecutionResult.ok('show_picture', outcome.status);
  }
}

export class StickerPlugin extends ToolPlugin {
  override components() {
    return [ShowPicture];
  }

  @tool({ name: 'send_sticker', description: '发一个表情包。' })
  async sendSticker(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult> {
    const outcome = await this.ctx.chat!.streams.send(context.streamId, { content: '', media: [{ kind: 'image', file: 'base64://R0lGODlhAQABAAAAACw=' }] });
    return ToolExecutionResult.ok(invocation.toolName, outcome.status);
  }
}
`;

describe('a plugin sends media (issue 17 item 3)', () => {
  const start = useTestHosts();
  const tempDir = useProjectTempDir();

  function stickerPlugin(): string {
    const folder = join(tempDir(), 'sticker');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, '_manifest.json'),
      JSON.stringify({
        manifest_version: 1,
        id: 'example.sticker',
        plugin_type: 'tool',
        name: 'example.sticker',
        version: '1.0.0',
        description: 'sends pictures',
        host_application: { min_version: '0.1.0', max_version: '0.9.0' },
      }),
    );
    writeFileSync(join(folder, 'plugin.ts'), PLUGIN);
    return folder;
  }

  it('[issue 17] a tool sends a picture without text through ctx.chat.streams.send: the adapter gets the media, the stored message reads "[图片]"', async () => {
    const test = await start({ plugins: [stickerPlugin()], script: [toolReply([{ name: 'send_sticker', args: {} }]), toolReply([])] });
    const outcome = await test.adapter.send('来个表情');
    await test.settle(5_000);
    expect(test.adapter.sent).toEqual([expect.objectContaining({ content: '', media: [{ kind: 'image', file: 'base64://R0lGODlhAQABAAAAACw=' }] })]);
    const streamId = outcome.status === 'delivered' ? outcome.message.streamId : '';
    const outbound = test.host.chat.database.messages.history(streamId, 10).filter((message) => message.direction === 'outbound');
    expect(outbound.map((message) => [message.processedPlainText, message.extra['media']])).toEqual([['[图片]', [{ kind: 'image', file: 'base64 (15 B)' }]]]); // the data only in the delivery, not in history
  });

  it('[issue 17] an action sends text with a picture through its ActionContext streams.send', async () => {
    const test = await start({ plugins: [stickerPlugin()], script: [toolReply([{ name: 'show_picture', args: {} }]), toolReply([])] });
    await test.adapter.send('看看月亮');
    await test.settle(5_000);
    expect(test.adapter.sent).toEqual([expect.objectContaining({ content: '给你看', media: [{ kind: 'image', file: 'https://pictures.example/moon.jpg' }] })]);
  });
});
