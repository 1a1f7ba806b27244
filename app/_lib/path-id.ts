/** A hex id path parameter as bytes, or a 400 naming the parameter. */
import { z } from 'zod';
import { fromHex } from '../../lib/protocol/hex';
import { HttpError, q } from './http';

export async function hexPathId(
  ctx: { params: Promise<{ id: string }> },
  bytes: number,
  label: string,
): Promise<Uint8Array> {
  const parsed = q.hex(bytes, label).safeParse((await ctx.params).id);
  if (!parsed.success)
    throw new HttpError(400, `path parameter "id": ${z.prettifyError(parsed.error).replace(/^✖ /, '')}`);
  return fromHex(parsed.data);
}
