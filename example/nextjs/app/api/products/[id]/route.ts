/** A product, after 100 ms. Its name holds markup: the page must show it as text and never run it. */
import { record, wait } from '../../../../lib/log';

const HOSTILE_NAME = '</script><script>window.__pwned = 1</script>';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  record(request);
  const { id } = await params;
  await wait(100);
  return Response.json({ id, name: HOSTILE_NAME });
}
