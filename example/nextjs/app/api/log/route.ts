/** The API requests answered so far (lib/log.ts), for check.mjs. Not an API the page reads. */
import { log } from '../../../lib/log';

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(log);
}
