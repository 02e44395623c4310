import { withDeliveryFailure } from '../chat/delivery-failure.js';
import type { DeliveryCheck, DeliveryCheckRequest, OutboundDelivery, OutboundSink } from '../chat/outbound-sink.js';

/**
 * The sink before an adapter connects: replies stay in the outbox until one does, and a
 * reply left in doubt by the previous run waits to be looked up by it.
 */
export class UndeliveredSink implements OutboundSink {
  async deliver(_delivery: OutboundDelivery): Promise<{ messageId: string }> {
    throw withDeliveryFailure(new Error('no adapter is connected yet'), 'retry');
  }

  async confirm(_request: DeliveryCheckRequest): Promise<DeliveryCheck> {
    throw withDeliveryFailure(new Error('no adapter is connected yet'), 'retry');
  }
}
