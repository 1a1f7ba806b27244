/** GET /api/openapi.json: the API's OpenAPI 3.1 document, generated from the lib/wire schemas (lib/api). */
import { openApiDocument } from '../../../lib/api/openapi';
import { NoQuerySchema } from '../../../lib/wire/params';
import { handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    parseQuery(req.url, NoQuerySchema);
    return json(openApiDocument());
  });
}
