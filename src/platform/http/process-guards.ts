/**
 * Once the service is up, no error that escapes a middleware, parser callback, stream or timer
 * ends the process (issue 13 item 1): it is logged — with the request id when it escaped from a
 * request's scope — and that request, if still unanswered, gets a problem+json 500. Installed only
 * after startup, so a genuine startup failure still stops the process with its stack.
 */
import type { Logger } from '../log.js';
import { answerError } from './errors.js';
import { currentRequestScope } from './scope.js';

function describe(error: unknown): Record<string, unknown> | string {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : String(error);
}

/** What the guards do with one escaped error (exported for the spec). */
export function containEscapedError(
  logger: Logger,
  kind: 'uncaughtException' | 'unhandledRejection',
  error: unknown,
): void {
  const scope = currentRequestScope();
  logger.error(`${kind} contained; the process keeps serving`, {
    request_id: scope?.request_id,
    error: describe(error),
  });
  if (!scope || scope.res.headersSent) return;
  try {
    answerError(logger, error, scope.req, scope.res);
  } catch (answerFailure) {
    logger.error('could not answer the request of a contained error', {
      request_id: scope.request_id,
      error: describe(answerFailure),
    });
    scope.res.destroy();
  }
}

/** Installs the guards on `proc`; returns a function that removes them (tests, shutdown). */
export function installProcessGuards(logger: Logger, proc: NodeJS.Process = process): () => void {
  const onException = (error: unknown) => containEscapedError(logger, 'uncaughtException', error);
  const onRejection = (reason: unknown) => containEscapedError(logger, 'unhandledRejection', reason);
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}
