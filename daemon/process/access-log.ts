// The daemon's access log, and the test suite's answer checker switch, as the app options take them.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

// One line per request, without headers (keys never reach the log). Successful quick reads are the
// bulk of traffic and the least interesting, so they log at debug (`--log-level debug` shows them);
// every write, every error and every slow read logs at info. Run in the request inspector's
// onResponse hook (http/inspect.ts), after it records the request: one hook per request, not two.
const SLOW_MS = 50;

/** The onAnswered hook: `log()` is the app's root logger, known once the app is built. */
export function accessLogger(
  logLevel: string,
  log: () => FastifyBaseLogger,
): (req: FastifyRequest, reply: FastifyReply) => void {
  const logReads = logLevel === 'debug';
  return (req, reply) => {
    const ms = reply.elapsedTime;
    const quietRead = req.method === 'GET' && reply.statusCode < 400 && ms < SLOW_MS;
    if (quietRead && !logReads) return;
    // the root logger with the request id first: the bytes of req.log's line, without making req.log
    const line = {
      reqId: req.id,
      method: req.method,
      url: req.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(ms * 100) / 100,
    };
    if (quietRead) log().debug(line, 'request');
    else log().info(line, 'request');
  };
}

/**
 * The test suite's answer checker (daemon/http/answer-check.ts): SVC_CHECK_ANSWERS=1, with the tally
 * written under SVC_ANSWER_CHECK_DIR. Only the tests set them (vitest.config.ts); no command or doc does.
 */
export function answerCheckFromEnv(): false | { countDir?: string } {
  if (process.env.SVC_CHECK_ANSWERS !== '1') return false;
  return { countDir: process.env.SVC_ANSWER_CHECK_DIR || undefined };
}
