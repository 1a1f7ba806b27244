/** GET /api/conversations/{id}: messages in order (32 hex id) and the NEG1 price path. */
import { z } from 'zod';
import { ConversationIdPathSchema } from '../../../../lib/wire/params';
import { loadConversation } from '../../../_lib/data';
import { HttpError, handle, json, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

const Id = ConversationIdPathSchema.shape.id;

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const parsed = Id.safeParse((await ctx.params).id);
    if (!parsed.success)
      throw new HttpError(400, `path parameter "id": ${z.prettifyError(parsed.error).replace(/^✖ /, '')}`);
    const conversation = await loadConversation(runtime(), parsed.data);
    if (!conversation) return json({ error: `conversation ${parsed.data} not found` }, 404);
    return json(conversation);
  });
}
