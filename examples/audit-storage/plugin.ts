import { ToolPlugin, TOKENS, overlay, type Database } from 'moonglass';

/** Logs every inbound message the host stores; unloading the plugin undoes the wrap. */
export class AuditStorage extends ToolPlugin {
  readonly stored: string[] = [];

  override async onLoad(): Promise<void> {
    this.ctx.override<Database>(TOKENS.Storage, {
      wrap: (db) =>
        overlay(db, {
          messages: overlay(db.messages, {
            insertInbound: (message) => {
              this.stored.push(message.content);
              this.ctx.logger.info({ stream_id: message.streamId, message_id: message.messageId }, 'stored an inbound message');
              return db.messages.insertInbound(message);
            },
          }),
        }),
    });
  }
}
