// The baseline: a bare fastify 5 hello-world, the smallest server the daemon's figures are compared
// with. Plain JavaScript run by plain `node` (no loader), like dist/daemon/main.js. It listens on a
// free loopback port and prints {"port":N} on one stdout line once it accepts connections.
import { fstatSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);

const close = () => app.close().finally(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
// Never outlive the bench: when stdin is a pipe from the parent, exit once the parent goes away.
const stdin = fstatSync(0);
if (stdin.isFIFO() || stdin.isSocket()) {
  process.stdin.on('end', close);
  process.stdin.resume();
}
