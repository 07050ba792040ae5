/** A product's reviews, after 800 ms: their boundary streams well after the product's. */
import { log, record, wait } from '../../../../../lib/log';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  record(request);
  const { id } = await params;
  await wait(800);
  const answer = log.filter(entry => entry.path.endsWith('/reviews')).length;
  return Response.json([
    { id: `${id}-r1`, text: 'Does what it says.' },
    { id: `${id}-r2`, text: `Answer #${answer} of the reviews endpoint.` },
  ]);
}
