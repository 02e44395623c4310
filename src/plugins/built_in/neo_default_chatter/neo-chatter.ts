import { BaseChatter, chatter, getService, type ChatterGenerator } from 'moonglass';
import type { NeoChatterService } from './ndfc-api.js';

/** `neo_default_chatter:chatter:neo_default_chatter`: a pure bridge to a ConversationSession. */
@chatter('neo_default_chatter', { description: 'The default conversation (NDFC).' })
export class NeoChatter extends BaseChatter {
  async *execute(): ChatterGenerator {
    const service = getService<NeoChatterService>('neo_default_chatter:service:chat_core');
    if (service === undefined) throw new Error('neo_default_chatter:service:chat_core is not available');
    // yield* forwards every yield and every resume event both ways.
    yield* service.createSession({ streamId: this.streamId, signal: this.signal }).execute();
  }
}
