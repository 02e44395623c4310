import { afterEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useConsoles } from '../support/admin.js';
import { toolReply } from '../support/ndfc.js';

// A model round that calls send_text("好的") twice: the second call is skipped as a duplicate,
// and the console's traces say so.

const twice = toolReply([
  { name: 'send_text', args: { content: '好的' } },
  { name: 'send_text', args: { content: '好的' } },
]);

interface TracedPublish {
  event: string;
  note: string | null;
}

describe('the web console’s traces of a skipped duplicate call', () => {
  const startConsole = useConsoles();

  it('[admin] [issue 13] the API marks the :dedupe_tool_call publish of the skipped call "duplicate: send_text"', async () => {
    const { test, api } = await startConsole({ script: [twice] });
    await test.adapter.send('帮我记一下');
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['好的']);
    const { streams } = (await (await api('/traces')).json()) as { streams: { streamId: string }[] };
    const { turns } = (await (await api(`/traces/${encodeURIComponent(streams[0]!.streamId)}`)).json()) as { turns: { publishes: TracedPublish[] }[] };
    const publishes = turns.flatMap((turn) => turn.publishes);
    const dedupes = publishes.filter((publish) => publish.event === 'neo_default_chatter:dedupe_tool_call');
    expect(dedupes.map((publish) => publish.note)).toEqual([null, 'duplicate: send_text']);
    expect(publishes.filter((publish) => publish.note !== null)).toHaveLength(1);
  });

  describe('in a browser', () => {
    const browser = useBrowser();
    const pages: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (pages.length > 0) await pages.pop()!();
    });

    it('[admin] [issue 13] the traces view shows the note on the skipped call’s :dedupe_tool_call row', async () => {
      const { test, server } = await startConsole({ script: [twice] });
      await test.adapter.send('帮我记一下');
      await test.settle(15_000);
      const page = await browser.newPage();
      pages.push(() => page.close());
      await page.goto(`http://127.0.0.1:${server.port}/#token=${server.token}`);
      await page.waitForSelector('text=Messages today');
      await page.click('a[data-page="traces"]');
      await page.click('a[href^="#traces/"]');
      await page.waitForSelector('[data-turn]');
      const noted = await page.$$eval('tr.trace-event:has(.trace-note)', (rows) =>
        rows.map((row) => ({ event: row.getAttribute('data-event'), text: row.querySelector('.trace-note')?.textContent ?? '' })),
      );
      expect(noted).toEqual([{ event: 'neo_default_chatter:dedupe_tool_call', text: '⚠ duplicate: send_text' }]);
    });
  });
});
