import { describe, expect, it } from 'vitest';
import { OneBotActionError } from '../../../src/adapters/onebot_v11/onebot-action-error.js';
import { createPeer, privateDelivery, startForward, startReverse, useAdapterCleanup } from './adapter-fixture.js';

useAdapterCleanup();

// Issue 13 item 2: replies go back where the message came from. Each envelope names the bot
// account (connection) it arrived on; a delivery naming an account is sent on that
// connection only.


/** An adapter in reverse mode with two accounts connected: 10000 (first) and 10002 (newest). */
async function twoAccounts(accounts: Record<string, string> = {}) {
  const fixture = await startReverse({}, { accounts });
  await fixture.connect();
  const second = createPeer({ selfId: '10002' });
  second.connectReverse({ url: fixture.url });
  await second.waitForConnection();
  await fixture.fake.waitForStatus((status) => status.connected, 'connected');
  return { ...fixture, first: fixture.peer, second };
}

function sends(peer: { actions: readonly { action: string }[] }): string[] {
  return peer.actions.map((request) => request.action);
}

describe('OneBot adapter with several accounts', () => {
  describe('inbound', () => {
    it('names the X-Self-ID account of the connection on each envelope', async () => {
      const { fake, first, second } = await twoAccounts();
      first.pushPrivateMessage({ message: 'to 10000' });
      await fake.waitForReceived(1);
      second.pushGroupMessage({ message: 'to 10002' });
      await fake.waitForReceived(2);
      expect(fake.received.map((envelope) => [envelope.content, envelope.account])).toEqual([
        ['to 10000', '10000'],
        ['to 10002', '10002'],
      ]);
    });

    it('names the event self_id in forward mode', async () => {
      const peer = createPeer({ selfId: '10005' });
      const { url } = await peer.listenForward();
      const { fake } = await startForward(url);
      await peer.waitForConnection();
      peer.pushPrivateMessage({ message: 'forward' });
      await fake.waitForReceived(1);
      expect(fake.received[0]).toMatchObject({ content: 'forward', account: '10005' });
    });
  });

  describe('deliver', () => {
    it('sends on the connection of delivery.account, whichever connected last', async () => {
      const { adapter, first, second } = await twoAccounts();
      await adapter.deliver({ ...privateDelivery, account: '10000', content: 'via 10000' });
      expect(sends(first)).toEqual(['send_private_msg']);
      expect(sends(second)).toEqual([]);
      await adapter.deliver({ ...privateDelivery, account: '10002', content: 'via 10002' });
      expect(sends(first)).toEqual(['send_private_msg']);
      expect(sends(second)).toEqual(['send_private_msg']);
    });

    it('sends on delivery.account even when bot.toml names the other account', async () => {
      const { adapter, first, second } = await twoAccounts({ qq: '10000' });
      await adapter.deliver({ ...privateDelivery, account: '10002' });
      expect(sends(second)).toEqual(['send_private_msg']);
      expect(sends(first)).toEqual([]);
    });

    it('rejects with no_connection naming the account when it is not connected, sending nothing elsewhere', async () => {
      const { adapter, first, second } = await twoAccounts({ qq: '10000' });
      const failure = adapter.deliver({ ...privateDelivery, account: '10009' });
      await expect(failure).rejects.toBeInstanceOf(OneBotActionError);
      await expect(failure).rejects.toMatchObject({ failure: 'no_connection', account: '10009' });
      await expect(failure).rejects.toThrow('OneBot action "send_private_msg" not sent: account 10009 is not connected (connected: 10000, 10002)');
      expect([...sends(first), ...sends(second)]).toEqual([]);
    });

    it('does not fall back to another account once the named one has disconnected', async () => {
      const { adapter, fake, first, second } = await twoAccounts();
      await second.close();
      await fake.waitForLog((line) => line.msg === 'OneBot connection closed' && line['selfId'] === '10002', '10002 closed');
      await expect(adapter.deliver({ ...privateDelivery, account: '10002' })).rejects.toMatchObject({ failure: 'no_connection', account: '10002' });
      expect(sends(first)).toEqual([]);
    });

    it('without an account (or with null) uses the bot.toml account, as before', async () => {
      const { adapter, first, second } = await twoAccounts({ qq: '10000' });
      await adapter.deliver(privateDelivery);
      await adapter.deliver({ ...privateDelivery, account: null });
      expect(sends(first)).toEqual(['send_private_msg', 'send_private_msg']);
      expect(sends(second)).toEqual([]);
    });
  });
});
