/**
 * GET /api/conversations/{id}/receipt: the Handshake receipt of a finished conversation as
 * canonical CBOR (lib/protocol/receipt.ts), downloaded as a file; 409 naming what is missing
 * while the conversation is not finished.
 */
import { handle, runtime } from '../../../../_lib/http';
import { hexPathId } from '../../../../_lib/path-id';
import { loadReceipt } from '../../../../_lib/verify';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = await hexPathId(ctx, 16, 'conversation id');
    const bytes = await loadReceipt(runtime(), id);
    return new Response(Buffer.from(bytes), {
      headers: {
        'content-type': 'application/cbor',
        'content-disposition': `attachment; filename="receipt-${Buffer.from(id).toString('hex')}.cbor"`,
        'cache-control': 'no-store',
      },
    });
  });
}
