import { BaseError } from '../protocol/errors';

/**
 * Bad tool input (an id that is not one): answered as a tool error naming the argument, not thrown to the transport.
 */
export class ToolInputError extends BaseError {
  override name = 'ToolInputError';
}
