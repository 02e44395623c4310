// The transport floor of bench/peers.bench.ts as a process of its own, run with plain `node`:
//
//   node bench/support/peers/bare-ws.mjs <port>
//
// A `ws` WebSocket endpoint on 127.0.0.1:<port> that answers every private message event at
// once with send_private_msg quoting it as moonglass's demo model does: the same endpoint as
// startBareEndpoint in bench/support/load-driver.ts. Prints `bare-ws: ready`; SIGTERM exits 0.
import { WebSocketServer } from 'ws';

const DEMO_PREFIX = '（演示模型）收到：';
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: bare-ws.mjs <port>');
  process.exit(2);
}

/** The plain text of a message (an array of segments or a string), as bench/support/answer-text.ts reads it. */
function answerText(message) {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return '';
  return message
    .filter((segment) => segment.type === 'text')
    .map((segment) => segment.data?.text ?? '')
    .join('');
}

const server = new WebSocketServer({ host: '127.0.0.1', port });
server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const event = JSON.parse(String(data));
    if (event.post_type !== 'message') return;
    socket.send(JSON.stringify({ action: 'send_private_msg', params: { user_id: event.user_id, message: [{ type: 'text', data: { text: DEMO_PREFIX + answerText(event.message) } }] }, echo: 'b' }));
  });
});
server.on('listening', () => console.log('bare-ws: ready'));
process.on('SIGTERM', () => {
  for (const client of server.clients) client.terminate();
  server.close(() => process.exit(0));
});
